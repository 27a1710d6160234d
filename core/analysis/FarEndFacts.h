#pragma once

#include "platform/DropCounters.h"
#include "platform/Interfaces.h"

#include <nlohmann/json.hpp>

#include <string>

namespace wb {

/// The far end's facts as wirebenchd sends them, in plain C++ so that the Qt-free wirebenchd writes them and the
/// client's InterfaceFacts, LinkTrust and DropCounts read the same JSON and apply the same rule: the interface's
/// facts (its kind, driver, speed) in the hello, what the kernel dropped during a test in the result.
class FarEndFacts
{
public:
    /// Version of the interface JSON (InterfaceFacts::kJsonVersion).
    static constexpr int kInterfaceJsonVersion = 1;
    /// Version of the drops JSON (DropCounts::kJsonVersion).
    static constexpr int kDropsJsonVersion = 1;

    /// {"version", "name", "device", "driver", "loopback", "virtual", "bond", "lower_missing", "hypervisor",
    /// "duplex", "speed_mbps" (when > 0), "mtu" (bytes, when known; added without a version change: older
    /// clients ignore it), "error" (when any, at most 200 characters)}.
    static nlohmann::json interfaceJson(const std::string &name, const platform::InterfaceReading &reading);
    /// What carries the traffic: "loopback", "virtual" (a software device), "vm" (a virtual machine's NIC),
    /// "hardware", or "unknown" (nothing could be read). The one rule LinkTrust words.
    static std::string kindOf(const platform::InterfaceReading &reading);
    /// The speed to believe (a bond's or a NIC's negotiated speed), Mbit/s; 0 when the rule believes none.
    static double trustedSpeedMbps(const platform::InterfaceReading &reading);
    static bool isSoftwareDriver(const std::string &driver);
    static bool isParavirtualDriver(const std::string &driver);
    static bool isEmulatedNicDriver(const std::string &driver);

    /// A run's drop delta as the versioned JSON object ({"version": 1, "interface", "qdisc", "duplex", counters...};
    /// unknown figures left out).
    static nlohmann::json dropsJson(const platform::DropReading &delta);
};

} // namespace wb
