package org.jptxas.sass;

/** Resolves label names to addresses when assembling; throws {@link IllegalArgumentException} for unknown names. */
@FunctionalInterface
public interface LabelResolver {
    long addressOf(String name);
}
