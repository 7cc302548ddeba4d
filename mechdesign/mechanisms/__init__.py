"""Named mechanism constructions from the literature."""

from .basic import randomized_response, uniform_mechanism
from .global_framework import (
    global_q_d,
    global_uniform_mechanism,
    hamming_distances,
    hamming_neighbours,
    parallel_composition_factor,
    product_alphabet,
    product_mechanism,
    product_prior,
)

__all__ = [
    "randomized_response",
    "uniform_mechanism",
    "global_q_d",
    "global_uniform_mechanism",
    "hamming_distances",
    "hamming_neighbours",
    "parallel_composition_factor",
    "product_alphabet",
    "product_mechanism",
    "product_prior",
]
