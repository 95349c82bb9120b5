"""Insomniac .animclip / .performanceclip files and their DAT1 container (ksy/animclip.ksy)."""
