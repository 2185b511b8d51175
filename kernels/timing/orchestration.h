// orchestration.h - a pypto-style orchestration for extern kernels on the
// probekit simulation (used by the ascendc-profile timing build
// tsort32_timing_inv; the main timing build uses the simpler runtime layer,
// kernels/sim/include/simpler): the host adds every tensor (add_input / add_output),
// then every scalar (add_scalar), and the task packs them in that order into
// the int64_t args[] the extern entry unpacks. Host code only.
#ifndef PK_ORCHESTRATION_H
#define PK_ORCHESTRATION_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace pkorch {

// A device buffer the task passes by address.
struct Tensor {
	void *dev = nullptr;
	size_t bytes = 0;
};

class Task {
public:
	Task() = default;
	Task(const Task &) = delete;
	Task &operator=(const Task &) = delete;
	~Task();

	void add_input(const Tensor &t) { AddTensor(t, false); }
	void add_output(const Tensor &t) { AddTensor(t, true); }
	// A scalar travels by value: integers widened, floating point by bits.
	template <typename T>
	void add_scalar(T v)
	{
		static_assert(std::is_arithmetic<T>::value, "add_scalar takes a number");
		int64_t packed = 0;
		if constexpr (std::is_floating_point<T>::value) {
			static_assert(sizeof(T) <= sizeof(packed), "scalar wider than a packed slot");
			std::memcpy(&packed, &v, sizeof(T));
		} else {
			packed = static_cast<int64_t>(v);
		}
		scalars_.push_back(packed);
	}

	// The timing tensor of the in-core timing build: INT64
	// [slots][rowWords], zeroed, owned by the task. probe-inject
	// --timing-tensor adds it with add_output after the last tensor.
	Tensor make_timing_tensor(int64_t slots, int64_t rowWords);

	bool HasTiming() const { return timing_.dev != nullptr; }
	const Tensor &Timing() const { return timing_; }
	int64_t TimingSlots() const { return timingSlots_; }
	int64_t TimingRowWords() const { return timingRowWords_; }

	// args[]: every tensor's address in the order added, then every scalar.
	std::vector<int64_t> Pack() const;
	size_t NumTensors() const { return tensors_.size(); }
	const std::string &Error() const { return error_; }

private:
	void AddTensor(const Tensor &t, bool output);
	std::vector<Tensor> tensors_;
	std::vector<bool> isOutput_;
	std::vector<int64_t> scalars_;
	Tensor timing_;
	int64_t timingSlots_ = 0, timingRowWords_ = 0;
	std::string error_;
};

} // namespace pkorch

#endif
