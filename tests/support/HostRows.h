#pragma once

#include "model/Host.h"

namespace wb::test {

/// A host as the tests name one: name, address, OS label and the wirebenchd port (5301).
inline Host namedHost(const QString &name, const QString &address, const QString &os)
{
    Host h;
    h.name = name;
    h.address = address;
    h.port = 5301;
    h.osLabel = os;
    return h;
}

} // namespace wb::test
