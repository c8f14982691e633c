package io.dpone.backfill.redaction;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ScrubbingOutputStreamTest {
    private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(new ScrubbingOutputStream(sink, StandardCharsets.UTF_8), true, StandardCharsets.UTF_8);

    private String written() {
        return sink.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aPasswordWrittenInPiecesIsMaskedBecauseTheLineIsScrubbedWhole() {
        out.print("cannot connect: jdbc:postgresql://h/db?pass");
        out.flush();
        out.print("word=So1-Pa55-XYZ");
        out.println("&sslmode=require");

        assertThat(written()).isEqualTo("cannot connect: jdbc:postgresql://h/db?password=***&sslmode=require" + System.lineSeparator());
    }

    @Test
    void aLineLeavesOnlyWhenItEndsNotWhenFlushedHalfway() {
        out.print("half a line");
        out.flush();
        assertThat(written()).isEmpty();

        out.print(" redrawn\r");
        assertThat(written()).isEqualTo("half a line redrawn\r");
    }

    @Test
    void whatIsLeftWithoutANewlineLeavesWhenTheProcessEnds() throws Exception {
        ScrubbingOutputStream stream = new ScrubbingOutputStream(sink, StandardCharsets.UTF_8);
        stream.write("{\"password\":\"x\"} no newline".getBytes(StandardCharsets.UTF_8));

        stream.emitPending();

        assertThat(written()).isEqualTo("{\"password\":\"x\"} no newline");
    }

    @Test
    void textWithoutCredentialsPassesByteForByte() {
        out.println("lane 0: 12 chunks, 1.2 M rows — ETA 3 min ✓");

        assertThat(written()).isEqualTo("lane 0: 12 chunks, 1.2 M rows — ETA 3 min ✓" + System.lineSeparator());
    }
}
