"""Closed forms and bounds from the source papers, one module per paper."""
