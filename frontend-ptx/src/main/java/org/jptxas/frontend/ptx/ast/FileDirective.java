package org.jptxas.frontend.ptx.ast;

/**
 * {@code .file 1 "k.cu", 1700000000, 1234}: a debug file index; the timestamp and size are {@code -1} when absent.
 */
public record FileDirective(SourcePos pos, long index, String path, long timestamp, long size) implements ModuleItem {
}
