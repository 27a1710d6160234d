#pragma once

#include <QString>

namespace wb::test {

/// smbd starts samba-dcerpcd on demand for RPC (the share list asks srvsvc), and that daemon detaches from smbd,
/// so stopping smbd leaves it behind. Kills (by pid) the processes whose command line names configPath, i.e.
/// the helpers of the fixture's own smbd. Returns how many it killed.
int killSambaLeftovers(const QString &configPath);

} // namespace wb::test
