// cuzk-bench: a gRPC client of cuzk-daemon. Proves one proof, a batch or a timed mixed load
// (Filecoin PoSt too, from vanilla proof files or synthetic ones made here, and PoRep C2 from a C1
// file), checks every returned proof with the circuit's verification key (--verify), and runs the
// admin calls (status, preload, evict, cancel). gen-vanilla porep | snap writes synthetic PoRep C1 files and SnapDeals
// vanilla proofs.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <exception>
#include <iostream>

#include "commands.hpp"

namespace {

void add_request_options(CLI::App* sub, cuzk::bench::RequestTemplate& r) {
  sub->add_option("--circuit", r.circuit, "circuit id (empty with a Filecoin --kind: the daemon's circuit for the kind)");
  auto* kind =
      sub->add_option("--kind", r.kind, "groth16, winning_post, window_post, porep, snap_deals")->capture_default_str();
  sub->add_option("--priority", r.priority, "low, normal, high, critical (default: the kind's)");
  sub->add_option("--seed", r.seed,
                  "seed of the first proof's input (proof i uses seed + i): native circuits' witness; PoSt: synthetic "
                  "vanilla proofs and, without --randomness, the randomness")
      ->capture_default_str();
  auto* wtns =
      sub->add_option("--wtns", r.wtns_path, "circom .wtns for circuits registered from a .zkey")->check(CLI::ExistingFile);

  // Filecoin PoSt: a PostRequest; the kind follows from the registered proof.
  cuzk::bench::PostOptions& p = r.post;
  auto* post = sub->add_option("--post-proof", p.proof,
                               "Filecoin PoSt request of this registered proof: go-state-types number (0-4 WinningPoSt, "
                               "5-14 WindowPoSt) or name (StackedDrgWindow2KiBV1, StackedDrgWinning2KiBV1, ...)")
                   ->excludes(kind)
                   ->excludes(wtns);
  sub->add_option("--partition", p.partition, "PoSt: WindowPoSt partition index (WinningPoSt: 0)")
      ->capture_default_str()
      ->needs(post);
  auto* ids = sub->add_option("--sector-ids", p.sector_ids,
                              "PoSt: the sectors, in order (1,2,...); synthetic default 1..--sectors; with --vanilla "
                              "the ids the proofs must be")
                  ->needs(post);
  sub->add_option("--sectors", p.sectors, "PoSt: synthetic sectors (WindowPoSt: 1 to the partition size)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->needs(post)
      ->excludes(ids);
  sub->add_option("--randomness", p.randomness,
                  "PoSt: the 32-byte challenge seed, 64 hex digits or base64, a canonical field element (default: "
                  "derived from --seed)")
      ->needs(post);
  sub->add_flag("--chain-randomness", p.chain_randomness,
                "PoSt: --randomness is chain randomness: clear the top two bits of its byte 31 first, as Lotus does")
      ->needs(post);
  sub->add_option("--vanilla", p.vanilla,
                  "PoSt: vanilla proof files (filecoin-proofs-api bincode), one per sector, in order, made with "
                  "--randomness (default: synthetic vanilla proofs made here)")
      ->check(CLI::ExistingFile)
      ->needs(post);

  // Filecoin PoRep C2: a PorepRequest carrying the C1 file's bytes.
  cuzk::bench::PorepOptions& pr = r.porep;
  auto* porep = sub->add_option("--porep-c1", pr.c1,
                                "Filecoin PoRep C2 request (kind porep) of this C1 output, sent as it is: filecoin-ffi's "
                                "JSON, Curio's envelope or supraseal's bincode")
                    ->check(CLI::ExistingFile)
                    ->excludes(kind)
                    ->excludes(wtns)
                    ->excludes(post);
  sub->add_option("--porep-proof", pr.proof,
                  "PoRep: the registered seal proof, go-state-types number (0-19) or name (StackedDrg32GiBV1_1, ...); "
                  "required for a bincode C1, else checked against the C1's")
      ->needs(porep);
  sub->add_option("--prover-id", pr.prover_id,
                  "PoRep: the miner actor id (1000, f01000) or 64 hex digits; with the sector number, the C1's "
                  "replica id is checked (by the daemon, and here against the inputs)")
      ->needs(porep);
  sub->add_option("--sector", pr.sector, "PoRep: the sector number (Curio's envelope carries its own)")->needs(porep);

  // Filecoin SnapDeals: a SnapRequest of a directory of vanilla proofs.
  cuzk::bench::SnapOptions& sn = r.snap;
  auto* snap = sub->add_option("--snap-vanilla", sn.vanilla_dir,
                               "Filecoin SnapDeals request (kind snap_deals) of this directory: partition-<k>.vproof "
                               "(bincode PartitionProof, sent as they are) and commitments.txt, as gen-vanilla snap "
                               "writes it")
                   ->check(CLI::ExistingDirectory)
                   ->excludes(kind)
                   ->excludes(wtns)
                   ->excludes(post)
                   ->excludes(porep);
  sub->add_option("--snap-proof", sn.proof,
                  "SnapDeals: the registered update proof, number (0-4) or name (StackedDrg32GiBV1, ...); default: "
                  "commitments.txt's")
      ->needs(snap);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cuzk::bench;
  CLI::App app{"cuzk-bench: client and load generator for cuzk-daemon"};
  app.set_version_flag("--version", std::string("cuzk-bench ") + CUZK_VERSION);
  app.require_subcommand(1);
  Common common;
  if (const char* t = std::getenv("CUZK_TOKEN")) common.client.token = t;
  app.add_option("--target", common.client.target, "daemon address: unix:/path or host:port")->capture_default_str();
  app.add_option("--token", common.client.token, "bearer token for TCP (default: $CUZK_TOKEN)");
  app.add_option("--tls-ca", common.client.tls_ca_file, "TLS to a TCP target, trusting this PEM certificate (bundle)")
      ->check(CLI::ExistingFile);
  app.add_option("--timeout", common.timeout_s, "seconds to wait for each proof")->capture_default_str();
  app.add_flag("--verify", common.verify, "verify every returned proof with the circuit's verification key");

  SingleArgs single;
  auto* s = app.add_subcommand("single", "prove one proof and print its per-phase timings");
  add_request_options(s, single.req);
  s->add_option("--request-id", single.request_id, "idempotency key (default: assigned by the daemon)");
  s->add_option("--proof", single.proof_out, "write proof.json here");
  s->add_option("--public", single.public_out, "write public.json here");
  s->add_option("--proof-bytes", single.proof_bytes_out,
                "write the proof's bytes here (PoSt: the 192-byte proof; PoRep: the partitions' 192-byte proofs "
                "concatenated in order)");

  BatchArgs batch;
  bool batch_quiet = false;
  auto* b = app.add_subcommand("batch", "N proofs, J at a time: throughput, p50/p99 latency, daemon peak memory");
  add_request_options(b, batch.req);
  b->add_option("-n,--count", batch.count, "proofs")->capture_default_str()->check(CLI::PositiveNumber);
  b->add_option("-j,--concurrency", batch.concurrency, "proofs in flight")->capture_default_str()->check(CLI::PositiveNumber);
  b->add_flag("--no-progress", batch_quiet, "no progress bar on stderr");

  StressArgs stress;
  bool stress_quiet = false;
  auto* st = app.add_subcommand("stress", "mixed kinds and priorities for a duration; summary per kind and priority");
  st->add_option("--duration", stress.duration_s, "seconds of submissions")->capture_default_str()->check(CLI::PositiveNumber);
  st->add_option("-j,--concurrency", stress.concurrency, "proofs in flight")->capture_default_str()->check(CLI::PositiveNumber);
  st->add_option("--max-jobs", stress.max_jobs, "most submissions")->capture_default_str()->check(CLI::PositiveNumber);
  st->add_option("--seed", stress.seed, "seed of the random mix")->capture_default_str();
  st->add_flag("--no-progress", stress_quiet, "no progress bar on stderr");

  bool status_json = false;
  auto* stat = app.add_subcommand("status", "devices, keys, queues, budgets, jobs, memory");
  stat->add_flag("--json", status_json, "print the status as JSON (as HTTP /status)");

  std::string circuit, request_id;
  auto* pre = app.add_subcommand("preload", "load a circuit's key");
  pre->add_option("--circuit", circuit, "circuit id")->required();
  auto* ev = app.add_subcommand("evict", "drop a circuit's resident key (refused while a job uses it)");
  ev->add_option("--circuit", circuit, "circuit id")->required();
  auto* can = app.add_subcommand("cancel", "cancel a queued or running proof");
  can->add_option("--id", request_id, "request id")->required();

  GenPorepArgs gen_porep;
  auto* gv = app.add_subcommand("gen-vanilla", "make SYNTHETIC vanilla proofs (test data, no daemon needed)");
  gv->require_subcommand(1);
  auto* gp = gv->add_subcommand(
      "porep",
      "a SYNTHETIC PoRep C1 output (SealCommitPhase1) of a test sector made here, NOT a sealed sector: up to 8 MiB "
      "(and synthetic/NI proofs up to 512 MiB) the whole sector is sealed in memory; larger sectors get a sparse "
      "all-zero (CC) sector consistent for the challenged nodes only (interactive proofs only). It passes the C1 "
      "checks and satisfies the circuit, but its comm_r is on no chain");
  gp->add_option("--sector-size", gen_porep.sector_size,
                 "2KiB, 8MiB, 512MiB, 32GiB or 64GiB (default proof: its V1_1)");
  gp->add_option("--proof", gen_porep.proof,
                 "registered seal proof: go-state-types number (0-19) or name (StackedDrg32GiBV1_1, "
                 "StackedDrg2KiBV1_1_Feat_SyntheticPoRep, ...)");
  gp->add_option("--seed", gen_porep.seed, "derives the ticket, the interactive seed and the data")
      ->capture_default_str();
  gp->add_option("--sector", gen_porep.sector, "sector number")->capture_default_str();
  gp->add_option("--prover-id", gen_porep.prover_id, "miner actor id (1000, f01000) or 64 hex digits")
      ->capture_default_str();
  gp->add_option("--ticket", gen_porep.ticket, "the sealing ticket, 64 hex digits (default: from --seed)");
  gp->add_option("--porep-seed", gen_porep.porep_seed,
                 "the interactive challenge seed, 64 hex digits (default: from --seed)");
  gp->add_option("--out", gen_porep.out, "output file (default: stdout)");
  gp->add_option("--format", gen_porep.format,
                 "json (filecoin-ffi's C1 JSON), curio (Curio's C2 envelope: base64 of the JSON), bincode "
                 "(supraseal's)")
      ->capture_default_str();
  gp->add_option("--mode", gen_porep.mode, "auto, sealed (whole sector in memory, up to 512 MiB) or sparse")
      ->capture_default_str();
  gp->add_flag("--no-check", gen_porep.no_check, "skip verify_c1 on the result");

  GenSnapArgs gen_snap;
  auto* gs = gv->add_subcommand(
      "snap",
      "SYNTHETIC SnapDeals vanilla proofs of a test sector update, NOT an update a node made: up to 8 MiB the "
      "update of a sector sealed in memory by gen-vanilla porep's sealer (its replica is the old one, its comm_r "
      "comm_r_old), above sparse trees (4,096 nodes carry data); written as partition-<k>.vproof (bincode "
      "PartitionProof) and commitments.txt");
  auto* gs_size = gs->add_option("--sector-size", gen_snap.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  gs->add_option("--proof", gen_snap.proof,
                 "registered update proof: number (0-4) or name (StackedDrg2KiBV1 ... StackedDrg64GiBV1)")
      ->excludes(gs_size);
  gs->add_option("--seed", gen_snap.seed, "derives the sealed sector (as gen-vanilla porep --seed), the new data and the sparse nodes")
      ->capture_default_str();
  gs->add_option("--out-dir", gen_snap.out_dir, "directory for partition-<k>.vproof and commitments.txt")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  batch.progress = !batch_quiet;
  stress.progress = !stress_quiet;
  try {
    if (s->parsed()) return run_single(common, single);
    if (b->parsed()) return run_batch(common, batch);
    if (st->parsed()) return run_stress(common, stress);
    if (stat->parsed()) return run_status(common, status_json);
    if (pre->parsed()) return run_preload(common, circuit);
    if (ev->parsed()) return run_evict(common, circuit);
    if (can->parsed()) return run_cancel(common, request_id);
    if (gp->parsed()) return run_gen_vanilla_porep(gen_porep);
    if (gs->parsed()) return run_gen_vanilla_snap(gen_snap);
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitUsage;
}
