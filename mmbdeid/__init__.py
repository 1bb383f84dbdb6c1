"""mmbdeid: de-identify medical message board text (Benton et al. 2011, extended)."""
__version__ = "0.1.0"
