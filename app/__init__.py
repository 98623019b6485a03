"""Slate: a desktop studio for paid AI image and video generation that never pays twice."""

__version__ = "0.1.0"
