// timing_check_test.cpp - the timing matrix validation catches each mistake it
// is meant to: a stale row, a zero stamp, a non-monotonic row, an inactive
// core that wrote, a wrong slot id; and accepts a good matrix.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "timing_check.h"

namespace {

const char kMap[] = "{\n  \"row_words\": 8,\n  \"magic\": 6073470531233906688,\n  \"magic_column\": 7,\n"
		    "  \"events\": [\n    {\"name\": \"entry\", \"column\": 0},\n"
		    "    {\"name\": \"producer_done\", \"column\": 1},\n    {\"name\": \"body_done\", \"column\": 2}\n  ]\n}\n";

std::vector<int64_t> Good(const TimingLayout &L)
{
	std::vector<int64_t> m(3 * 8, 0);
	for (int s = 0; s < 2; s++) {
		m[s * 8 + 0] = 100 + s;
		m[s * 8 + 1] = 200 + s;
		m[s * 8 + 2] = 300 + s;
		m[s * 8 + 7] = static_cast<int64_t>(L.magic + s);
	}
	return m; // slot 2 inactive, untouched
}

int Expect(const char *what, const std::vector<std::string> &got, const char *needle)
{
	bool hit = needle == nullptr ? got.empty() : false;
	for (const std::string &p : got)
		hit |= needle && p.find(needle) != std::string::npos;
	std::printf("%s %s\n", hit ? "ok" : "FAIL", what);
	for (const std::string &p : got)
		std::printf("    %s\n", p.c_str());
	return hit ? 0 : 1;
}

} // namespace

int main()
{
	TimingLayout L;
	std::string err;
	if (!ParseTimingLayout(kMap, &L, &err) || L.events.size() != 3 || L.rowWords != 8) {
		std::printf("FAIL parse: %s\n", err.c_str());
		return 1;
	}
	const std::vector<bool> active = { true, true, false };
	int fails = 0;
	std::vector<int64_t> m = Good(L);
	fails += Expect("good matrix", ValidateTiming(m.data(), 3, L, active), nullptr);
	m = Good(L);
	m[1 * 8 + 7] = 0; // a row the launch never wrote, e.g. after a clear
	fails += Expect("unwritten slot", ValidateTiming(m.data(), 3, L, active), "slot 1: not written");
	m = Good(L);
	m[0 * 8 + 7] = static_cast<int64_t>(L.magic + 1); // another slot's id
	fails += Expect("wrong slot id", ValidateTiming(m.data(), 3, L, active), "slot 0: not written");
	m = Good(L);
	m[0 * 8 + 1] = 0;
	fails += Expect("zero stamp", ValidateTiming(m.data(), 3, L, active), "'producer_done' is zero");
	m = Good(L);
	m[1 * 8 + 2] = 50;
	fails += Expect("non-monotonic row", ValidateTiming(m.data(), 3, L, active), "'body_done' (50) before");
	m = Good(L);
	m[2 * 8 + 0] = 7;
	fails += Expect("inactive core wrote", ValidateTiming(m.data(), 3, L, active), "slot 2: inactive but written");
	m = Good(L);
	m[0 * 8 + 4] = 9;
	fails += Expect("stray word", ValidateTiming(m.data(), 3, L, active), "unused word 4");
	TimingLayout bad;
	fails += ParseTimingLayout("{\"events\": []}", &bad, &err) ? 1 : 0;
	return fails ? 1 : 0;
}
