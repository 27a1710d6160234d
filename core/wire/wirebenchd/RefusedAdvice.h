#pragma once

#include <QString>

namespace wb::control {

/// What to tell the user when a TCP connection to a wirebenchd host's control port is refused: nothing listens
/// on that port. Advising "start wirebenchd" only makes sense on wirebenchd's own port (5301, the default); on
/// another port (9, a typo, another service's) the port in the host's settings, a firewall and whether the
/// server runs come first. One line, without the host (the caller puts it in front). Every client of wirebenchd
/// (the TCP driver, checks before a plan) says it with these words.
QString wirebenchdRefusedText(quint16 port);

} // namespace wb::control
