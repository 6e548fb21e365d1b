"""The Battle Line companion: a camera referee for Reiner Knizia's Battle Line."""

__version__ = "0.1.0"
