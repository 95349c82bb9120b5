// make acl-check's timer of ACL (tools/acl_check.py builds it against a local copy of ACL,
// nfrechette/acl, MIT, with rtm and sjson-cpp), for what ACL's tools/acl_compressor does not
// measure or write out. Two commands:
//
// acl_codec compress IN.acl.sjson OUT.acl RUNS
//   does what acl_compressor does at its defaults with a raw SJSON track list of transforms (read
//   it, pre-process it with the recommended lossy actions and ACL's qvvf error metric, compress it
//   with get_default_compression_settings()), times the compression alone RUNS times and prints
//   the best CPU time (std::clock) and the compressed size as one JSON line, and writes the
//   compressed tracks (no metadata: the size acl_compressor reports as compressed_size) to OUT.
//   acl_compressor's own compression_time is wall time; this is CPU time, as the benchmark's.
//
// acl_codec decompress IN.acl OUT.f32 RUNS
//   decompresses every sample of every track with ACL's default transform decompression settings,
//   as a game would, and writes them as float32, sample by sample, track by track: rotation
//   x y z w, translation x y z, scale x y z (10 floats), to OUT (so the benchmark measures ACL's
//   output with its own ground truth, bench/bvh.py); times a whole-clip decompression (every
//   sample, every track) RUNS times and prints the best CPU time as one JSON line.

#include "acl/compression/compress.h"
#include "acl/compression/pre_process.h"
#include "acl/compression/track_array.h"
#include "acl/compression/transform_error_metrics.h"
#include "acl/core/ansi_allocator.h"
#include "acl/core/compressed_tracks.h"
#include "acl/core/floating_point_exceptions.h"
#include "acl/decompression/decompress.h"
#include "acl/io/clip_reader.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace
{
	// The whole file, in a buffer aligned to 64 bytes (what compressed tracks need), with a NUL after it.
	char* read_file(const char* path, size_t& out_size)
	{
		std::FILE* in = std::fopen(path, "rb");
		if (in == nullptr)
			return nullptr;
		std::fseek(in, 0, SEEK_END);
		const long size = std::ftell(in);
		std::fseek(in, 0, SEEK_SET);
		char* buffer = static_cast<char*>(std::aligned_alloc(64, (size_t(size) + 64) / 64 * 64));
		const bool ok = buffer != nullptr && std::fread(buffer, 1, size_t(size), in) == size_t(size);
		std::fclose(in);
		if (!ok)
		{
			std::free(buffer);
			return nullptr;
		}
		buffer[size] = '\0';
		out_size = size_t(size);
		return buffer;
	}

	bool write_file(const char* path, const void* data, size_t size)
	{
		std::FILE* out = std::fopen(path, "wb");
		if (out == nullptr)
			return false;
		const bool ok = std::fwrite(data, 1, size, out) == size;
		return std::fclose(out) == 0 && ok;
	}

	struct pose_writer final : public acl::track_writer
	{
		float* out = nullptr;  // 10 floats per track of the current sample

		void RTM_SIMD_CALL write_rotation(uint32_t track_index, rtm::quatf_arg0 rotation)
		{
			rtm::quat_store(rotation, out + track_index * 10);
		}

		void RTM_SIMD_CALL write_translation(uint32_t track_index, rtm::vector4f_arg0 translation)
		{
			rtm::vector_store3(translation, out + track_index * 10 + 4);
		}

		void RTM_SIMD_CALL write_scale(uint32_t track_index, rtm::vector4f_arg0 scale)
		{
			rtm::vector_store3(scale, out + track_index * 10 + 7);
		}
	};

	int compress(const char* in_path, const char* out_path, int runs)
	{
		size_t size = 0;
		char* text = read_file(in_path, size);
		if (text == nullptr)
		{
			std::fprintf(stderr, "cannot read %s\n", in_path);
			return 2;
		}
		acl::ansi_allocator allocator;
		acl::clip_reader reader(allocator, text, size);
		acl::sjson_raw_track_list raw;
		if (reader.get_file_type() != acl::sjson_file_type::raw_track_list || !reader.read_raw_track_list(raw)
			|| raw.track_list.get_track_type() != acl::track_type8::qvvf)
		{
			const acl::clip_reader_error err = reader.get_error();
			std::fprintf(stderr, "%s: not a raw SJSON track list of transforms (line %d column %d: %s)\n",
				in_path, err.line, err.column, err.get_description());
			return 2;
		}
		acl::track_array_qvvf tracks = std::move(acl::track_array_cast<acl::track_array_qvvf>(raw.track_list));

		acl::qvvf_transform_error_metric error_metric;
		acl::compression_settings settings = acl::get_default_compression_settings();
		settings.error_metric = &error_metric;

		// As acl_compressor: lossy pre-processing (its default settings are not all full precision).
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
		if (!write_file(out_path, compressed, compressed->get_size()))
		{
			std::fprintf(stderr, "cannot write %s\n", out_path);
			return 2;
		}
		std::printf("{\"bytes\": %u, \"compress_cpu_s\": %.9g, \"runs\": %d}\n", compressed->get_size(), best, runs);
		allocator.deallocate(compressed, compressed->get_size());
		std::free(text);
		return 0;
	}

	int decompress(const char* in_path, const char* out_path, int runs)
	{
		size_t size = 0;
		char* buffer = read_file(in_path, size);
		const acl::compressed_tracks* tracks = buffer == nullptr ? nullptr : acl::make_compressed_tracks(buffer);
		if (tracks == nullptr || tracks->get_size() != size || tracks->is_valid(true).any())
		{
			std::fprintf(stderr, "%s is not a valid compressed ACL file\n", in_path);
			return 2;
		}

		acl::scope_disable_fp_exceptions fp_off;
		acl::decompression_context<acl::default_transform_decompression_settings> context;
		if (!context.initialize(*tracks))
		{
			std::fprintf(stderr, "cannot initialise a decompression context\n");
			return 2;
		}

		const uint32_t num_tracks = tracks->get_num_tracks();
		const uint32_t num_samples = tracks->get_num_samples_per_track();
		const float sample_rate = tracks->get_sample_rate();
		const float duration = tracks->get_duration();
		std::vector<float> poses(size_t(num_samples) * num_tracks * 10, 0.0F);
		pose_writer writer;

		double best = 1e30;
		for (int run = 0; run < runs; ++run)
		{
			const std::clock_t start = std::clock();
			for (uint32_t sample_index = 0; sample_index < num_samples; ++sample_index)
			{
				// As ACL's own error measurement samples (track_error.impl.h): time = index / rate.
				const float sample_time = rtm::scalar_min(float(sample_index) / sample_rate, duration);
				writer.out = poses.data() + size_t(sample_index) * num_tracks * 10;
				context.seek(sample_time, acl::sample_rounding_policy::nearest);
				context.decompress_tracks(writer);
			}
			const double cpu = double(std::clock() - start) / CLOCKS_PER_SEC;
			best = cpu < best ? cpu : best;
		}
		if (!write_file(out_path, poses.data(), poses.size() * sizeof(float)))
		{
			std::fprintf(stderr, "cannot write %s\n", out_path);
			return 2;
		}
		std::printf("{\"tracks\": %u, \"samples\": %u, \"sample_rate\": %.9g, \"bytes\": %zu, "
			"\"decompress_cpu_s\": %.9g, \"runs\": %d}\n", num_tracks, num_samples, double(sample_rate), size, best, runs);
		std::free(buffer);
		return 0;
	}
}

int main(int argc, char* argv[])
{
	const int runs = argc == 5 && std::atoi(argv[4]) > 0 ? std::atoi(argv[4]) : 1;
	if (argc == 5 && std::strcmp(argv[1], "compress") == 0)
		return compress(argv[2], argv[3], runs);
	if (argc == 5 && std::strcmp(argv[1], "decompress") == 0)
		return decompress(argv[2], argv[3], runs);
	std::fprintf(stderr, "usage: %s compress IN.acl.sjson OUT.acl RUNS\n       %s decompress IN.acl OUT.f32 RUNS\n",
		argv[0], argv[0]);
	return 2;
}
