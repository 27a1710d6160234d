// libFuzzer target: everything wirebenchd parses before a client has proven the key. The input is the byte
// stream a client sends after the server's hello: frames are decoded with the pre-authentication cap, and a
// decoded message goes through the same check the Responder applies (auth::checkClientHello), in open and
// keyed mode. The same frames, decoded with the limit after the proof (64 KiB), go through every message reader
// a proven client or a far wirebenchd reaches (test, ready, progress, result). UBSan's float-cast-overflow makes
// a number cast out of range a failure. Run by tests/fuzz/run_fuzz.sh.
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace wb;
    static const std::string key = "fuzz-key";
    static const std::string serverNonce(auth::kNonceBytes, 'n');
    std::string_view in(reinterpret_cast<const char *>(data), size);
    // The stream, frame by frame, as ControlChannel::read sees it.
    for (int frames = 0; frames < 16 && !in.empty(); ++frames) {
        const control::Decoded d = control::decode(in, 64 * 1024);
        if (d.status != control::Decoded::Status::Message) {
            (void)control::decodeOne(in, auth::kMaxPreAuthBytes); // the "truncated" wording when the peer closes
            break;
        }
        const auth::ClientHelloCheck open = auth::checkClientHello(d.message, std::string(), serverNonce, "fuzz");
        const auth::ClientHelloCheck keyed = auth::checkClientHello(d.message, key, serverNonce, "fuzz");
        // Invariant: no input passes the keyed check without a proof computed with the key.
        if (keyed.ok() && !auth::sameBytes(keyed.hello.mac, auth::clientProof(key, serverNonce, keyed.clientNonce)))
            __builtin_trap();
        if (open.ok())
            (void)open.hello.osSummary();
        std::string error;
        control::TestRequest request;
        control::Ready ready;
        control::Progress progress;
        control::Result result;
        control::Hello hello;
        (void)control::TestRequest::fromJson(d.message, &request, &error);
        (void)control::Ready::fromJson(d.message, &ready, &error);
        (void)control::Progress::fromJson(d.message, &progress, &error);
        (void)control::Result::fromJson(d.message, &result, &error);
        (void)control::Hello::fromJson(d.message, &hello, &error);
        in = in.substr(d.consumed);
    }
    return 0;
}
