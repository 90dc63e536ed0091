package org.jptxas.api;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of one compilation.
 *
 * @param exitCode what {@code jptxas} (and ptxas) would exit with: 0, or 255 after an error
 * @param messages every diagnostic, in the order printed (warnings and errors as ptxas words them)
 * @param resources the functions compiled, in {@code -v}'s order (empty when nothing compiled)
 * @param log the text the command line would print (standard error, then standard output)
 */
public record CompileResult(int exitCode, Optional<byte[]> cubin, List<Message> messages,
                            List<FunctionResources> resources, String log) {
    public CompileResult {
        cubin = cubin.map(byte[]::clone);
        messages = List.copyOf(messages);
        resources = List.copyOf(resources);
    }

    /** True when the compilation wrote a cubin and reported no error. */
    public boolean succeeded() {
        return exitCode == 0 && cubin.isPresent();
    }

    /** The cubin's bytes (a copy); throws {@link IllegalStateException} with the errors when there is none. */
    public byte[] cubinOrThrow() {
        return cubin.map(byte[]::clone).orElseThrow(() -> new IllegalStateException(
                "no cubin: " + String.join("; ", messages.stream().filter(Message::isError).map(Message::toString).toList())));
    }

    @Override
    public Optional<byte[]> cubin() {
        return cubin.map(byte[]::clone);
    }
}
