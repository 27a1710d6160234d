#pragma once

#include <QByteArray>
#include <QString>

namespace wb {

/// Wirebench's own test files, told apart from everyone else's before a driver would write over one
/// (docs/FILESERVERS.md, "Test files on the server"). Each test file starts with TestPattern's mark, a line of text
/// that says what the file is; the driver reads the first headBytes() bytes and checks it. The default file name,
/// wirebench-test.bin, tells the people who look at the server. A GET/read replaces a file of another size only when
/// it is Wirebench's, and reads any other as it is (its real size becomes the transfer's); a PUT/write does not
/// overwrite a file that is not Wirebench's. Nothing Wirebench did not write is ever written or deleted.
class TestFile
{
public:
    /// "wirebench-test.bin": the file name of a path that names none (empty, or ending in /).
    static QString defaultName();
    /// Bytes to read from the start of a file for isOwn().
    static qint64 headBytes();
    /// head (the file's first headBytes() bytes, fewer only where the file ends) starts with the test pattern's mark.
    /// A file shorter than the mark counts as Wirebench's when it is the mark's start, or empty.
    static bool isOwn(const QByteArray &head);

    /// The warning of a GET/read that found `path` with `found` bytes where the plan asked for `planned`, and read
    /// it as it is because it is not Wirebench's (found < 0: the server did not say its size). verifySkipped: the
    /// plan asked for verification, which a file without the test pattern cannot have.
    static QString readAsFoundWarning(const QString &path, qint64 found, qint64 planned, bool verifySkipped);
    /// What a PUT/write says when `path` holds someone else's file (found < 0: size unknown).
    static QString notOverwritten(const QString &path, qint64 found);
};

} // namespace wb
