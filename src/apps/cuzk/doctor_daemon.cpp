// `cuzk doctor --target`: the daemon answers GetStatus (doctor.hpp).
#include <chrono>
#include <cstdio>
#include <string>

#include "client.hpp"
#include "doctor.hpp"

namespace cuzk::cli::doctor {

void check_daemon(const std::string& target, const std::string& token, const std::string& tls_ca, Report& r) {
  const std::string topic = "daemon";
  try {
    server::Client client({target, token, tls_ca});
    ::cuzk::v1::GetStatusResponse s;
    const grpc::Status st = client.stub().GetStatus(client.context(std::chrono::seconds(5)).get(), {}, &s);
    if (!st.ok()) {
      std::string why = st.error_message();
      if (st.error_code() == grpc::StatusCode::UNAUTHENTICATED) why += " (give its token: --token or $CUZK_TOKEN)";
      r.fail(topic, target + ": unreachable: " + why);
      return;
    }
    char up[32];
    std::snprintf(up, sizeof up, "%.0f s", s.uptime_s());
    r.ok(topic, target + ": answers; backend " + s.backend() + ", " + std::to_string(s.devices_size()) + " device(s), " +
                    std::to_string(s.circuits_size()) + " circuit(s), up " + up + ", " + std::to_string(s.succeeded()) +
                    " proof(s) made");
  } catch (const std::exception& e) {
    r.fail(topic, target + ": " + e.what());
  }
}

}  // namespace cuzk::cli::doctor
