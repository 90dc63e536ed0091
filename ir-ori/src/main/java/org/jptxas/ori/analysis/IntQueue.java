package org.jptxas.ori.analysis;

import java.util.Arrays;

/**
 * A first-in first-out queue of ints for data-flow worklists: an {@code ArrayDeque<Integer>} boxes every block
 * number above 127, which showed in the profiles of large kernels.
 */
final class IntQueue {
    private int[] data;
    private int head;
    private int size;

    IntQueue(int capacity) {
        data = new int[Math.max(4, capacity)];
    }

    void add(int v) {
        if (size == data.length) {
            int[] grown = new int[2 * data.length];
            for (int i = 0; i < size; i++) {
                grown[i] = data[(head + i) % data.length];
            }
            data = grown;
            head = 0;
        }
        data[(head + size) % data.length] = v;
        size++;
    }

    int poll() {
        int v = data[head];
        head = (head + 1) % data.length;
        size--;
        return v;
    }

    boolean isEmpty() {
        return size == 0;
    }

    @Override
    public String toString() {
        int[] items = new int[size];
        for (int i = 0; i < size; i++) {
            items[i] = data[(head + i) % data.length];
        }
        return Arrays.toString(items);
    }
}
