# This is a generated file! Please edit the .ksy files in ksy/ and run `make generate`.
"""Parsers compiled by kaitai-struct-compiler 0.11.0 from ksy/: animbin, animclip, meshbin."""
