// make acl-check's decompressor (tools/acl_check.py builds it against a local copy of ACL,
// nfrechette/acl, MIT, with its rtm): reads a compressed ACL binary (acl_compressor -out=FILE.acl),
// decompresses every sample of every track with ACL's default transform decompression settings,
// as a game would, and
//   * writes them as float32, sample by sample, track by track: rotation x y z w, translation
//     x y z, scale x y z (10 floats), to OUT (so the benchmark measures ACL's output with its own
//     ground truth, bench/bvh.py);
//   * times a whole-clip decompression (every sample, every track) RUNS times and prints the best
//     CPU time (std::clock) as one JSON line.
// Usage: acl_decompress FILE.acl OUT.f32 RUNS

#include "acl/core/ansi_allocator.h"
#include "acl/core/compressed_tracks.h"
#include "acl/core/floating_point_exceptions.h"
#include "acl/decompression/decompress.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace
{
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
}

int main(int argc, char* argv[])
{
	if (argc != 4)
	{
		std::fprintf(stderr, "usage: %s FILE.acl OUT.f32 RUNS\n", argv[0]);
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
	void* buffer = std::aligned_alloc(64, (size_t(size) + 63) / 64 * 64);
	if (std::fread(buffer, 1, size_t(size), in) != size_t(size))
	{
		std::fprintf(stderr, "cannot read %s\n", argv[1]);
		return 2;
	}
	std::fclose(in);

	const acl::compressed_tracks* tracks = acl::make_compressed_tracks(buffer);
	if (tracks == nullptr || tracks->get_size() != uint32_t(size) || tracks->is_valid(true).any())
	{
		std::fprintf(stderr, "%s is not a valid compressed ACL file\n", argv[1]);
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

	const int runs = std::atoi(argv[3]) > 0 ? std::atoi(argv[3]) : 1;
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

	std::FILE* out = std::fopen(argv[2], "wb");
	if (out == nullptr || std::fwrite(poses.data(), sizeof(float), poses.size(), out) != poses.size())
	{
		std::fprintf(stderr, "cannot write %s\n", argv[2]);
		return 2;
	}
	std::fclose(out);
	std::printf("{\"tracks\": %u, \"samples\": %u, \"sample_rate\": %.9g, \"bytes\": %ld, \"decompress_cpu_s\": %.9g, \"runs\": %d}\n",
		num_tracks, num_samples, double(sample_rate), size, best, runs);
	std::free(buffer);
	return 0;
}
