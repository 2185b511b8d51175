// timing_check.cpp - see timing_check.h.
#include "timing_check.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// The integer after "KEY": in TEXT, or false. The sidecar is written by
// probekit with one key per line, so a key search is enough.
bool IntField(const std::string &text, const char *key, unsigned long long *v)
{
	const std::string k = std::string("\"") + key + "\":";
	size_t p = text.find(k);
	if (p == std::string::npos)
		return false;
	const char *s = text.c_str() + p + k.size();
	char *end = nullptr;
	*v = std::strtoull(s, &end, 10);
	return end != s;
}

} // namespace

bool ParseTimingLayout(const std::string &json, TimingLayout *out, std::string *err)
{
	unsigned long long rw = 0, mc = 0, magic = 0;
	if (!IntField(json, "row_words", &rw) || !IntField(json, "magic_column", &mc) ||
	    !IntField(json, "magic", &magic)) {
		*err = "event map lacks row_words, magic or magic_column";
		return false;
	}
	unsigned long long v = 0;
	out->generation = json.find("\"generation\": true") != std::string::npos;
	out->generationArg = IntField(json, "generation_arg", &v) ? static_cast<int>(v) : -1;
	out->row0Arg = IntField(json, "row0_arg", &v) ? static_cast<int>(v) : -1;
	out->invocations = IntField(json, "invocations", &v) && v > 0 ? static_cast<int>(v) : 1;
	out->rowWords = static_cast<int>(rw);
	out->magicColumn = static_cast<int>(mc);
	out->magic = magic;
	// "identity": {"task": C, ...}: the keys inside its braces
	const size_t id = json.find("\"identity\":");
	const size_t idEnd = id == std::string::npos ? id : json.find('}', id);
	static const char *const idKeys[4] = { "task", "core", "block", "lane" };
	for (int i = 0; i < 4; i++) {
		out->identity[i] = -1;
		if (id == std::string::npos)
			continue;
		const std::string inner = json.substr(id, idEnd - id);
		if (IntField(inner, idKeys[i], &v))
			out->identity[i] = static_cast<int>(v);
	}
	out->events.clear();
	const std::string k = "\"name\": \"";
	for (size_t p = json.find(k); p != std::string::npos; p = json.find(k, p + 1)) {
		size_t s = p + k.size(), e = json.find('"', s);
		out->events.push_back(json.substr(s, e - s));
	}
	if (out->events.size() < 2 || out->rowWords % 8 != 0 || out->magicColumn >= out->rowWords ||
	    static_cast<int>(out->events.size()) > out->magicColumn) {
		*err = "event map is inconsistent (events, row_words, magic_column)";
		return false;
	}
	return true;
}

std::vector<std::string> ValidateTiming(const int64_t *m, size_t slots, const TimingLayout &L,
					const std::vector<bool> &active, uint64_t generation)
{
	std::vector<std::string> bad;
	char buf[256];
	const size_t ncol = L.events.size();
	for (size_t s = 0; s < slots; s++) {
		const int64_t *row = m + s * static_cast<size_t>(L.rowWords);
		if (s >= active.size() || !active[s]) {
			for (int w = 0; w < L.rowWords; w++)
				if (row[w] != 0) {
					std::snprintf(buf, sizeof(buf), "slot %zu: inactive but written (word %d)", s, w);
					bad.push_back(buf);
					break;
				}
			continue;
		}
		const uint64_t want = L.generation ? L.magic + ((generation & 0xFFFF) << 16) + (s & 0xFFFF) : L.magic + s;
		if (static_cast<uint64_t>(row[L.magicColumn]) != want) {
			std::snprintf(buf, sizeof(buf), "slot %zu: not written by this launch (word %d is 0x%llx, want 0x%llx)",
				      s, L.magicColumn, static_cast<unsigned long long>(row[L.magicColumn]),
				      static_cast<unsigned long long>(want));
			bad.push_back(buf);
			continue;
		}
		for (size_t c = 0; c < ncol; c++) {
			if (row[c] == 0) {
				std::snprintf(buf, sizeof(buf), "slot %zu: '%s' is zero", s, L.events[c].c_str());
				bad.push_back(buf);
			} else if (c > 0 && row[c] < row[c - 1]) {
				std::snprintf(buf, sizeof(buf), "slot %zu: '%s' (%lld) before '%s' (%lld)", s,
					      L.events[c].c_str(), static_cast<long long>(row[c]),
					      L.events[c - 1].c_str(), static_cast<long long>(row[c - 1]));
				bad.push_back(buf);
			}
		}
		for (int w = static_cast<int>(ncol); w < L.rowWords; w++)
			if (w != L.magicColumn && row[w] != 0 && w != L.identity[0] && w != L.identity[1] &&
			    w != L.identity[2] && w != L.identity[3]) {
				std::snprintf(buf, sizeof(buf), "slot %zu: unused word %d is %lld", s, w,
					      static_cast<long long>(row[w]));
				bad.push_back(buf);
			}
	}
	return bad;
}

std::vector<std::string> CheckIdentity(const int64_t *m, size_t slots, const TimingLayout &L,
				       const std::vector<bool> &active, const std::vector<RowIdentity> &want)
{
	std::vector<std::string> bad;
	static const char *const names[4] = { "task", "core", "block", "lane" };
	char buf[256];
	for (size_t s = 0; s < slots && s < active.size() && s < want.size(); s++) {
		if (!active[s])
			continue;
		const int64_t *row = m + s * static_cast<size_t>(L.rowWords);
		const long long w[4] = { want[s].task, want[s].core, want[s].block, want[s].lane };
		for (int i = 0; i < 4; i++)
			if (L.identity[i] >= 0 && w[i] >= 0 && row[L.identity[i]] != w[i]) {
				std::snprintf(buf, sizeof(buf), "slot %zu: %s (word %d) is %lld, want %lld", s, names[i],
					      L.identity[i], static_cast<long long>(row[L.identity[i]]), w[i]);
				bad.push_back(buf);
			}
	}
	return bad;
}

bool SaveTiming(const std::string &prefix, const int64_t *m, size_t slots, int rowWords, std::string *err)
{
	const size_t bytes = slots * static_cast<size_t>(rowWords) * sizeof(int64_t);
	char dict[128];
	std::snprintf(dict, sizeof(dict), "{'descr': '<i8', 'fortran_order': False, 'shape': (%zu, %d), }", slots,
		      rowWords);
	std::string header = dict;
	// magic (6) + version (2) + length (2) + header, padded to 64 bytes, '\n' last
	while ((10 + header.size() + 1) % 64 != 0)
		header += ' ';
	header += '\n';
	const std::string npy = prefix + ".npy", bin = prefix + ".bin";
	FILE *f = std::fopen(npy.c_str(), "wb");
	if (!f) {
		*err = "cannot write " + npy;
		return false;
	}
	const unsigned char pre[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
					static_cast<unsigned char>(header.size() & 0xff),
					static_cast<unsigned char>(header.size() >> 8) };
	bool ok = std::fwrite(pre, 1, 10, f) == 10 && std::fwrite(header.data(), 1, header.size(), f) == header.size() &&
		  std::fwrite(m, 1, bytes, f) == bytes;
	ok = (std::fclose(f) == 0) && ok;
	FILE *g = ok ? std::fopen(bin.c_str(), "wb") : nullptr;
	ok = g && std::fwrite(m, 1, bytes, g) == bytes;
	if (g)
		ok = (std::fclose(g) == 0) && ok;
	if (!ok)
		*err = "cannot write " + npy + " / " + bin;
	return ok;
}
