package org.jptxas.isel.codegen;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A memo of a pure function's answers, bounded without forgetting what is in use: entries live in two generations,
 * and when the young one reaches its bound, the old one is dropped and the young one becomes old. An entry found in the
 * old generation moves back into the young one, so every entry asked for since the last turn survives the next: a
 * working set up to the bound is never lost, however long the memo lives (a compile server's), and a larger one loses
 * only the entries no lookup reached in a whole generation. (Emptying the memo when full, instead, made a function with
 * more distinct instructions than the bound miss on a third of its lookups, every time it was compiled.)
 *
 * <p>Only for pure functions: a key's answer must not depend on when it was made, so the memo only ever holds the one
 * answer per key and is observably immutable. Thread-safe; two threads may compute the same answer, and the memo then
 * keeps either (they are equal).
 */
public final class RecentMemo<K, V> {
    private final int generationBound;
    private volatile Map<K, V> young = new ConcurrentHashMap<>();
    private volatile Map<K, V> old = Map.of();

    /** A memo whose generations hold at most {@code generationBound} entries each. */
    public RecentMemo(int generationBound) {
        if (generationBound < 1) {
            throw new IllegalArgumentException("generation bound " + generationBound);
        }
        this.generationBound = generationBound;
    }

    /** The remembered answer for {@code key}, or null. */
    public V get(K key) {
        V v = young.get(key);
        if (v == null) {
            v = old.get(key);
            if (v != null) {
                put(key, v);
            }
        }
        return v;
    }

    /** The answer for {@code key}: the remembered one, else {@code compute}'s (remembered; null is not). */
    public V computeIfAbsent(K key, Function<? super K, ? extends V> compute) {
        V v = get(key);
        if (v != null) {
            return v;
        }
        v = compute.apply(key);
        return v != null ? put(key, v) : null;
    }

    /** Remembers {@code value} for {@code key} unless an answer is there already; returns the one remembered. */
    public V put(K key, V value) {
        Objects.requireNonNull(value, "value");
        Map<K, V> y = young;
        if (y.size() >= generationBound) {
            y = turn(y);
        }
        V earlier = y.putIfAbsent(key, value);
        return earlier != null ? earlier : value;
    }

    /** Entries held (both generations; an entry may be in both while it moves). */
    public int size() {
        return young.size() + old.size();
    }

    private synchronized Map<K, V> turn(Map<K, V> full) {
        if (young == full) {
            old = full;
            young = new ConcurrentHashMap<>();
        }
        return young;
    }
}
