"""The methods :func:`~mechdesign.solve.design` dispatches to (its ``METHODS`` table and the registry's
``SOLVER_PATHS``), one module each, below the dispatch (``solve.py``) and above the certificate:

``direct`` (the whole LP built straight for HiGHS or Clarabel: ``"direct-lp"``), ``column_generation``
(the direct LPs restricted to generated outputs: ``"column-generation"``), ``closed_form`` (certified
Hamming closed forms at any n: ``"closed-form"``), ``hockey_stick`` (hockey-stick (ε, δ)-DP:
``"hockey-stick-cuts"``), ``blahut_arimoto`` (the distortion–rate design under mutual-information privacy:
``"blahut-arimoto"``), ``metric`` (metric DP by column generation over its cone: ``"metric-cone"``),
``sml_cuts`` (SML constraint generation: ``"constraint-generation"``), ``renyi_pairs`` (Rényi DP with many
neighbour pairs by lazy pair generation: ``"pair-generation"``) and ``certified``, the certification
tail every method and designer ends in. The entry points beside ``design()`` are :mod:`mechdesign.designers`.
Nothing here imports ``solve.py`` or anything above it (docs/architecture.md, tests/test_layers.py).
"""
