"""Writing a mixture's tensors to a real .gguf file with the gguf package (tests/test_gguf_types.py)."""

from __future__ import annotations

import numpy as np


def tensor_data(shape: tuple[int, ...], type_name: str):
    """(array, raw_dtype) for GGUFWriter.add_tensor: zeros quantized by gguf.quants.quantize where it can,
    else zero bytes of the right length (K-quants and IQ types only dequantize in gguf-py)."""
    import gguf
    from gguf.quants import quant_shape_to_byte_shape, quantize

    qtype = gguf.GGMLQuantizationType[type_name]
    if type_name == "F32":
        return np.zeros(shape, np.float32), None
    if type_name == "F16":
        return np.zeros(shape, np.float16), None
    try:
        return quantize(np.zeros(shape, np.float32), qtype), qtype
    except NotImplementedError:
        return np.zeros(quant_shape_to_byte_shape(shape, qtype), np.uint8), qtype


def write_mixture(path, typed) -> str:
    """Write every TypedTensor of a MixtureBytes at its type; the path written."""
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    for t in typed:
        data, raw_dtype = tensor_data(t.shape, t.type)
        writer.add_tensor(t.name, data, raw_dtype=raw_dtype)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return str(path)
