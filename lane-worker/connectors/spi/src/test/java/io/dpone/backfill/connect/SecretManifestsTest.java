package io.dpone.backfill.connect;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecretManifestsTest {
    @TempDir
    Path dir;

    /**
     * SnakeYAML's messages (through jackson-dataformat-yaml) quote the offending line with a caret under it, and a
     * secrets file's offending line is often the password's: an unclosed quote, a ':' inside an unquoted value.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "unclosed quote|  password: \"Yaml1-Pa55-XYZ%zz|5",
            "colon in a plain value|  password: Yaml2-Pa55: XYZ|5",
            "unclosed flow sequence|  password: [Yaml3-Pa55-XYZ|6",
    })
    void aSecretsFileThatIsNotYamlIsReportedByFileAndLineWithoutTheLinesText(String label, String line, int lineNumber) throws IOException {
        Path file = Files.writeString(dir.resolve("secrets.yaml"), """
                apiVersion: v1
                kind: Secret
                metadata: {name: src-db}
                stringData:
                %s
                  user: loader
                """.formatted(line));

        assertThatThrownBy(() -> SecretManifests.read(List.of(file))).as(label)
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("line " + lineNumber)
                .hasMessageNotContaining("Pa55")
                .hasNoCause();
    }
}
