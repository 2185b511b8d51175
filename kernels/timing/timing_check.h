// timing_check.h - read the event map probe-inject --timing-tensor writes
// (OUT.timing.json) and validate a captured timing matrix (slots written, stamps nonzero and in order). Host code;
// included by the timing harness and its test.
#ifndef PK_TIMING_CHECK_H
#define PK_TIMING_CHECK_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct TimingLayout {
	int rowWords = 8;              // int64 words per slot (8 per 64-byte line)
	int magicColumn = 7;           // holds magic + slot
	uint64_t magic = 0;
	std::vector<std::string> events; // column order: entry, ..., body_done
	bool generation = false;       // marker: magic + (gen & 0xFFFF) << 16 + (slot & 0xFFFF)
	int generationArg = -1;        // args[] index of the generation id (extern), -1 none
	int row0Arg = -1;              // args[] index of the invocation's first row, -1 none
	int invocations = 1;           // invocations sharing the matrix
	// the row's identity ("identity" of the map): the columns of the task
	// token, core, block and lane (Identity*), -1 for a word not written
	int identity[4] = { -1, -1, -1, -1 };
};
enum { IdentityTask, IdentityCore, IdentityBlock, IdentityLane };

// What a row's identity must say (-1: not checked).
struct RowIdentity {
	long long task = -1, core = -1, block = -1, lane = -1;
};

// Parse the sidecar JSON text; false with *err set when a field is missing.
bool ParseTimingLayout(const std::string &json, TimingLayout *out, std::string *err);

// Problems found in M ([slots][rowWords], row-major), one line each, empty
// when the matrix is valid: every active slot written by this launch (magic +
// slot), every event stamp nonzero, stamps non-decreasing in column order,
// unused words zero (the identity's are not unused), and inactive slots (ACTIVE[s] false) untouched.
std::vector<std::string> ValidateTiming(const int64_t *m, size_t slots, const TimingLayout &L,
					const std::vector<bool> &active, uint64_t generation = 0);

// Problems with the identity of the active slots: slot s must say WANT[s]
// in each identity column the map names (a word it leaves out is not read).
std::vector<std::string> CheckIdentity(const int64_t *m, size_t slots, const TimingLayout &L,
				       const std::vector<bool> &active, const std::vector<RowIdentity> &want);

// .npy (int64, shape [slots, rowWords]) and raw .bin, for probe-report.
bool SaveTiming(const std::string &prefix, const int64_t *m, size_t slots, int rowWords, std::string *err);

#endif
