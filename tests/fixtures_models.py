"""A tiny embedding model the tests make themselves: a word-level tokenizer and an ONNX graph that looks
each token's vector up in a table (written as protobuf by hand; the `onnx` package is not needed)."""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from pathlib import Path


def _varint(value: int) -> bytes:
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, value: int | bytes | str) -> bytes:
    """One protobuf field: an int as a varint, bytes or text length-delimited."""
    if isinstance(value, int):
        return _varint(number << 3) + _varint(value)
    data = value.encode() if isinstance(value, str) else value
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _value_info(name: str, elem_type: int, dims: Sequence[int | str]) -> bytes:
    shape = b"".join(
        _field(1, _field(1, d) if isinstance(d, int) else _field(2, d)) for d in dims
    )
    tensor_type = _field(1, elem_type) + _field(2, shape)
    return _field(1, name) + _field(2, _field(1, tensor_type))


FLOAT, INT64 = 1, 7


def onnx_lookup_model(table: Sequence[Sequence[float]]) -> bytes:
    """An ONNX model: input_ids [batch, seq] (int64) -> last_hidden_state [batch, seq, dim] = table[ids]."""
    rows, dim = len(table), len(table[0])
    raw = b"".join(struct.pack(f"<{dim}f", *row) for row in table)
    tensor = _field(1, rows) + _field(1, dim) + _field(2, FLOAT) + _field(8, "table") + _field(9, raw)
    node = (
        _field(1, "table")
        + _field(1, "input_ids")
        + _field(2, "last_hidden_state")
        + _field(3, "lookup")
        + _field(4, "Gather")
    )
    graph = (
        _field(1, node)
        + _field(2, "tiny")
        + _field(5, tensor)
        + _field(11, _value_info("input_ids", INT64, ["batch", "sequence"]))
        + _field(12, _value_info("last_hidden_state", FLOAT, ["batch", "sequence", dim]))
    )
    opset = _field(1, "") + _field(2, 13)
    return _field(1, 8) + _field(2, "reader-tests") + _field(7, graph) + _field(8, opset)


def write_tiny_model(folder: Path, vectors: Mapping[str, Sequence[float]]) -> Path:
    """A model folder (model.onnx, tokenizer.json) whose words embed as `vectors` (others as [UNK])."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.normalizers import Lowercase
    from tokenizers.pre_tokenizers import Whitespace

    folder.mkdir(parents=True, exist_ok=True)
    dim = len(next(iter(vectors.values())))
    vocab = {"[UNK]": 0, **{word: i for i, word in enumerate(vectors, 1)}}
    table = [[0.001] * dim, *(list(v) for v in vectors.values())]
    tokenizer = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.normalizer = Lowercase()
    tokenizer.pre_tokenizer = Whitespace()
    tokenizer.save(str(folder / "tokenizer.json"))
    (folder / "model.onnx").write_bytes(onnx_lookup_model(table))
    return folder
