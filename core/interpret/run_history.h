#pragma once
// The snapshots of one run kept for replay (the transformer lab's step slider), in bounded memory:
// at most `capacity` entries (rounded up to even), evenly thinned when the run is long, and the
// newest offer beside them. While there is room every entry offered is kept; when full, every
// second entry is dropped (the first stays) and from then on only every stride-th offer is kept,
// the stride doubling at each thinning. So the entries kept are the offers 0, s, 2s, ... (s the
// stride), evenly spread over the run, between capacity / 2 and capacity of them, and memory is
// capacity + 1 entries whatever the run's length. Qt-free; T is any copyable value (the lab keeps
// shared pointers to its frames).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace fb {

template <class T>
class RunHistory {
public:
    explicit RunHistory(std::size_t capacity = 128) : capacity_((std::max<std::size_t>(capacity, 4) + 1) / 2 * 2) { entries_.reserve(capacity_); }

    // Offers the entry of `step` (ascending). Returns whether it was kept.
    bool add(int step, T value)
    {
        const bool due = offered_++ % stride_ == 0;
        if (!due) {
            latest_ = Entry { step, std::move(value) };  // kept aside: the newest always shows
            hasLatest_ = true;
            return false;
        }
        hasLatest_ = false;
        if (entries_.size() == capacity_) thin();
        entries_.push_back(Entry { step, std::move(value) });
        return true;
    }
    void clear()
    {
        entries_.clear();
        offered_ = 0;
        stride_ = 1;
        hasLatest_ = false;
    }

    // Entries kept, oldest first, and the newest offered (if it was not kept) last.
    std::size_t size() const { return entries_.size() + (hasLatest_ ? 1 : 0); }
    bool empty() const { return size() == 0; }
    int step(std::size_t i) const { return entry(i).step; }
    const T &value(std::size_t i) const { return entry(i).value; }
    std::size_t capacity() const { return capacity_; }
    std::size_t stride() const { return stride_; }

    // The index of the last entry at or before step (0 when step precedes them all).
    std::size_t indexAt(int step) const
    {
        std::size_t i = 0;
        while (i + 1 < size() && this->step(i + 1) <= step) ++i;
        return i;
    }

private:
    struct Entry {
        int step = 0;
        T value {};
    };
    const Entry &entry(std::size_t i) const { return i < entries_.size() ? entries_[i] : latest_; }

    // Keeps entries 0, 2, 4, ... (the offers that stay due at twice the stride).
    void thin()
    {
        std::size_t out = 0;
        for (std::size_t i = 0; i < entries_.size(); i += 2) entries_[out++] = std::move(entries_[i]);
        entries_.resize(out);
        stride_ *= 2;
    }

    std::size_t capacity_;
    std::vector<Entry> entries_;
    Entry latest_;
    bool hasLatest_ = false;
    std::size_t offered_ = 0;
    std::size_t stride_ = 1;
};

} // namespace fb
