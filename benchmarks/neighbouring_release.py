"""The published mechanism does not depend on the data: two neighbouring Adult ``education`` columns.

Issue 29's check, on the Adult training split shipped with the package (``mechdesign.datasets``):

* ``first`` is the ``education`` column with every ``Preschool`` record but one removed; ``second``
  is ``first`` with that one record changed to ``HS-grad``. The two data sets differ in one record
  *and* in which categories occur (``Preschool`` is absent from ``second``).
* In the default mode (declared categories, uniform prior) the published mechanism — matrix, input
  and output labels, prior, certificate (its solve time aside) — is the same for both, under the
  estimation objective and the distortion objective. With ``categories="infer"`` it is not: the
  mechanism lists the categories that occur, so it reveals the changed record.
* The paid mode (``prior="private"``) spends ``prior_budget`` of the budget on a private first round;
  its ledger's total is the budget.

Releases are not run: only designs (the paid mode's first round draws from the operating system's
entropy and is never released). Prints a table and the ledger.

Run: ``python benchmarks/neighbouring_release.py [--budget 1.0] [--prior-budget 0.25]``
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np

from mechdesign import Privatizer
from mechdesign.datasets import load_adult
from mechdesign.privatizer import DataDependentDesignWarning

#: The category made to occur in one record only, and what that record becomes in the neighbour.
RARE, REPLACEMENT = "Preschool", "HS-grad"


def neighbours() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """``(first, second, categories)``: the two columns and the declared (public) education levels."""
    education = load_adult(["education"])["education"]
    categories = tuple(sorted(set(education.tolist())))  # the 16 levels the data set documents
    rare = np.flatnonzero(education == RARE)
    first = np.delete(education, rare[1:])
    second = first.copy()
    second[rare[0]] = REPLACEMENT
    return first, second, categories


def published(privatizer: Privatizer) -> list:
    """The published part of a fitted privatizer: its file payload's columns, solve times aside."""
    columns = privatizer.to_dict()["columns"]
    for column in columns:
        if column["result"] is not None:
            column["result"]["solve_time"] = 0.0
    return columns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=1.0, help="ε of each record (nats)")
    parser.add_argument("--prior-budget", type=float, default=0.25, help="ε₁ of the paid mode's first round")
    args = parser.parse_args()
    first, second, categories = neighbours()
    print(f"Adult education: {first.size} records; the neighbour changes one {RARE!r} record to {REPLACEMENT!r} "
          f"({len(set(first.tolist()))} vs {len(set(second.tolist()))} categories occur)")
    print(f"{'mode':<10} {'objective':<11} {'same published mechanism':>24}")
    for objective in ("estimation", "distortion"):
        designs = [Privatizer("dp", args.budget, objective, categories=categories).fit(column)
                   for column in (first, second)]
        print(f"{designs[0].mode_:<10} {objective:<11} {str(published(designs[0]) == published(designs[1])):>24}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataDependentDesignWarning)
        inferred = [Privatizer("dp", args.budget, categories="infer").fit(column) for column in (first, second)]
    print(f"{inferred[0].mode_:<10} {'estimation':<11} {str(published(inferred[0]) == published(inferred[1])):>24}"
          f"   ({inferred[0].mechanism_.n_inputs} vs {inferred[1].mechanism_.n_inputs} rows: the leak)")
    paid = Privatizer("dp", args.budget, categories=categories, prior="private", prior_budget=args.prior_budget)
    paid.fit(first)  # the first round draws from the operating system's entropy
    print(f"\npaid mode (prior='private', prior_budget={args.prior_budget:g}): {paid.guarantee_}")
    print(paid.ledger_.summary(deltas=[1e-6]))
    print(f"ledger total {paid.privacy_spent_!r} = budget {args.budget!r}: "
          f"{abs(paid.privacy_spent_ - args.budget) <= 1e-12 * args.budget}")


if __name__ == "__main__":
    main()
