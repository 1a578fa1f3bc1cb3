"""Batch analysis of many forests: classes, bounds, win probabilities, reports, curation."""
