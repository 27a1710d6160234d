#pragma once

#include <QtGlobal>

namespace wb {

/// An aligned heap buffer for O_DIRECT (4 KiB alignment).
class AlignedBuffer
{
public:
    explicit AlignedBuffer(qint64 size);
    ~AlignedBuffer();
    AlignedBuffer(const AlignedBuffer &) = delete;
    AlignedBuffer &operator=(const AlignedBuffer &) = delete;
    char *data() const { return m_data; }
    qint64 size() const { return m_size; }
    bool isNull() const { return m_data == nullptr; }

private:
    char *m_data = nullptr;
    qint64 m_size = 0;
};

} // namespace wb
