// make acl-check's compression timer (tools/acl_check.py builds it against a local copy of ACL,
// nfrechette/acl, MIT, with rtm and sjson-cpp): does what ACL's tools/acl_compressor does at its
// defaults with a raw SJSON track list of transforms (read it, pre-process it with the recommended
// lossy actions and ACL's qvvf error metric, compress it with get_default_compression_settings()),
// times the compression alone RUNS times and prints the best CPU time (std::clock) and the
// compressed size as one JSON line, and writes the compressed tracks (no metadata, so the size
// acl_compressor reports as compressed_size) to OUT for tools/acl_decompress.cpp.
// acl_compressor's own compression_time is wall time; this is CPU time, as the benchmark's.
// Usage: acl_compress IN.acl.sjson OUT.acl RUNS

#include "acl/compression/compress.h"
#include "acl/compression/pre_process.h"
#include "acl/compression/track_array.h"
#include "acl/compression/transform_error_metrics.h"
#include "acl/core/ansi_allocator.h"
#include "acl/io/clip_reader.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

int main(int argc, char* argv[])
{
	if (argc != 4)
	{
		std::fprintf(stderr, "usage: %s IN.acl.sjson OUT.acl RUNS\n", argv[0]);
		return 2;
	}
	std::FILE* in = std::fopen(argv[1], "rb");
	if (in == nullptr)
	{
		std::fprintf(stderr, "cannot open %s\n", argv[1]);
		return 2;
	}
	std::fseek(in, 0, SEEK_END);
	const long size = std::ftell(in);
	std::fseek(in, 0, SEEK_SET);
	std::vector<char> text(size_t(size) + 1, '\0');
	if (std::fread(text.data(), 1, size_t(size), in) != size_t(size))
	{
		std::fprintf(stderr, "cannot read %s\n", argv[1]);
		return 2;
	}
	std::fclose(in);

	acl::ansi_allocator allocator;
	acl::clip_reader reader(allocator, text.data(), size_t(size));
	acl::sjson_raw_track_list raw;
	if (reader.get_file_type() != acl::sjson_file_type::raw_track_list || !reader.read_raw_track_list(raw)
		|| raw.track_list.get_track_type() != acl::track_type8::qvvf)
	{
		const acl::clip_reader_error err = reader.get_error();
		std::fprintf(stderr, "%s: not a raw SJSON track list of transforms (line %d column %d: %s)\n",
			argv[1], err.line, err.column, err.get_description());
		return 2;
	}
	acl::track_array_qvvf tracks = std::move(acl::track_array_cast<acl::track_array_qvvf>(raw.track_list));

	acl::qvvf_transform_error_metric error_metric;
	acl::compression_settings settings = acl::get_default_compression_settings();
	settings.error_metric = &error_metric;

	// As acl_compressor: lossy pre-processing (its settings are not all full precision).
	acl::pre_process_settings_t pre_process_settings;
	pre_process_settings.actions = acl::pre_process_actions::recommended;
	pre_process_settings.precision_policy = acl::pre_process_precision_policy::lossy;
	pre_process_settings.error_metric = &error_metric;
	acl::track_array_qvvf no_base;
	pre_process_settings.additive_base = &no_base;
	pre_process_settings.additive_format = acl::additive_clip_format8::none;
	if (acl::pre_process_track_list(allocator, pre_process_settings, tracks).any())
	{
		std::fprintf(stderr, "pre-processing failed\n");
		return 2;
	}

	const int runs = std::atoi(argv[3]) > 0 ? std::atoi(argv[3]) : 1;
	double best = 1e30;
	acl::compressed_tracks* compressed = nullptr;
	for (int run = 0; run < runs; ++run)
	{
		if (compressed != nullptr)
			allocator.deallocate(compressed, compressed->get_size());
		compressed = nullptr;
		acl::output_stats stats;
		const std::clock_t start = std::clock();
		const acl::error_result result = acl::compress_track_list(allocator, tracks, settings, no_base,
			acl::additive_clip_format8::none, compressed, stats);
		const double cpu = double(std::clock() - start) / CLOCKS_PER_SEC;
		if (result.any())
		{
			std::fprintf(stderr, "compression failed: %s\n", result.c_str());
			return 2;
		}
		best = cpu < best ? cpu : best;
	}

	std::FILE* out = std::fopen(argv[2], "wb");
	if (out == nullptr || std::fwrite(compressed, 1, compressed->get_size(), out) != compressed->get_size())
	{
		std::fprintf(stderr, "cannot write %s\n", argv[2]);
		return 2;
	}
	std::fclose(out);
	std::printf("{\"bytes\": %u, \"compress_cpu_s\": %.9g, \"runs\": %d}\n", compressed->get_size(), best, runs);
	allocator.deallocate(compressed, compressed->get_size());
	return 0;
}
