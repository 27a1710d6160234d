#pragma once

#include <QtGlobal>

namespace wb {

/// Deterministic test data: the byte at offset o is a function of o alone, so that any chunk can be
/// generated or checked without state. The pattern repeats with an odd period (not a power of two)
/// so that a misplaced block is still noticed. Each period starts with a line of text (the mark), so that a test
/// file says what it is to anyone who looks at its first bytes, and TestFile can tell it from other files.
class TestPattern
{
public:
    /// Length of the mark at offset 0 (and at every multiple of the period).
    static qint64 markBytes();
    static void fill(char *dst, qint64 offset, qint64 length);
    /// Offset (absolute) of the first byte that differs from the pattern, or -1.
    static qint64 firstMismatch(const char *data, qint64 offset, qint64 length);
};

} // namespace wb
