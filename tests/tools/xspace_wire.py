"""The protobuf wire format by hand (no protobuf package, no TraceScope code): read by the XSpace
test oracles count_xspace.py and xspace_kernels.py, written by the test generators
(make_xspace_send_recv.py, make_tf1_gpu_run_metadata.py, make_handwired_run_metadata.py)."""
import struct


def varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def fields(buf, start=0, end=None):
    """Yields (field number, wire type, value) where value is an int for
    varint/fixed types and a memoryview slice for length-delimited ones."""
    end = len(buf) if end is None else end
    pos = start
    while pos < end:
        key, pos = varint(buf, pos)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, pos = varint(buf, pos)
        elif wt == 1:
            v = struct.unpack_from("<Q", buf, pos)[0]
            pos += 8
        elif wt == 2:
            n, pos = varint(buf, pos)
            if pos + n > end:
                raise ValueError("truncated length-delimited field")
            v = buf[pos:pos + n]
            pos += n
        elif wt == 5:
            v = struct.unpack_from("<I", buf, pos)[0]
            pos += 4
        else:
            raise ValueError("bad wire type %d" % wt)
        yield num, wt, v


def signed64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def text(v):
    return bytes(v).decode("utf-8", "replace")


# Writing.
def encode_varint(v):
    """A varint; a negative int64 as its ten-byte two's complement."""
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | 0x80 if v else b)
        if not v:
            return bytes(out)


def vfield(field, value):
    """A varint field."""
    return encode_varint(field << 3) + encode_varint(value)


def bfield(field, payload):
    """A length-delimited field (bytes, or str as UTF-8)."""
    if isinstance(payload, str):
        payload = payload.encode()
    return encode_varint(field << 3 | 2) + encode_varint(len(payload)) + payload
