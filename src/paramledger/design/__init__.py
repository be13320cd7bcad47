"""The design as layers of parts: the flat, HF-named keys of an Architecture translated into a stack
of layers (flat.py), each layer a few parts (layers.py, parts/)."""
