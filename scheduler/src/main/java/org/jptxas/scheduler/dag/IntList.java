package org.jptxas.scheduler.dag;

import java.util.Arrays;

/** A growable int array, to keep DAG construction free of boxing. */
final class IntList {
    int[] a = new int[4];
    int size;

    void add(int v) {
        if (size == a.length) {
            a = Arrays.copyOf(a, size * 2);
        }
        a[size++] = v;
    }

    int get(int i) {
        return a[i];
    }

    int last() {
        return size == 0 ? Integer.MIN_VALUE : a[size - 1];
    }

    void clear() {
        size = 0;
    }
}
