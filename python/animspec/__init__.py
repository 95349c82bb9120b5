"""animspec: Kaitai Struct specs, byte-exact writers, validators and playback for ANIMBIN
(psyqo madnight engine, PS1) and Insomniac .animclip files.

The byte layouts live in ksy/*.ksy; this package adapts the parsers generated from them.
"""

__version__ = "0.1.0"
