package io.dpone.backfill.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RepositoryRootTest {
    @Test
    void theTopFolderIsTheOneHoldingTheWrapperAndTheReadme() {
        assertThat(RepositoryRoot.path().resolve("README.md")).isRegularFile();
        assertThat(RepositoryRoot.resolve("lane-worker", "test-support", "pom.xml")).isRegularFile();
    }

    @Test
    void aModulesOwnPomDoesNotStopTheSearch(@TempDir Path top) throws IOException {
        Files.createDirectories(top.resolve(".mvn"));
        Files.writeString(top.resolve("pom.xml"), "<project/>");
        Path module = Files.createDirectories(top.resolve("lane-worker/connectors/spi/src"));
        Files.writeString(top.resolve("lane-worker/connectors/spi/pom.xml"), "<project/>");
        Files.writeString(top.resolve("lane-worker/pom.xml"), "<project/>");

        assertThat(RepositoryRoot.find(module)).isEqualTo(top.normalize());
    }

    @Test
    void outsideAnyRepositoryItSaysWhatItLookedFor(@TempDir Path nowhere) {
        assertThatThrownBy(() -> RepositoryRoot.find(nowhere))
                .hasMessageContaining(".mvn beside pom.xml").hasMessageContaining(nowhere.toString());
    }
}
