#include "AlignedBuffer.h"

#include "LocalFileIo.h"

#include <cstdlib>

namespace wb {

AlignedBuffer::AlignedBuffer(qint64 size)
{
    void *p = nullptr;
    if (posix_memalign(&p, LocalFileIo::Alignment, size_t(size)) == 0) {
        m_data = static_cast<char *>(p);
        m_size = size;
    }
}

AlignedBuffer::~AlignedBuffer()
{
    std::free(m_data);
}

} // namespace wb
