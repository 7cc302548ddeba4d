"""Shared test configuration: a derandomized hypothesis profile (reproducible CI runs)."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "mechdesign",
    derandomize=True,
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("mechdesign")
