package io.dpone.backfill.testsupport.mssql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * SQL Server in Docker through Testcontainers, one container per JVM (Testcontainers' Ryuk removes it when the JVM
 * exits). Docker is looked for cheaply first: without {@code DOCKER_HOST}, a Testcontainers config or a known
 * socket, Testcontainers is never touched, so a machine without Docker pays nothing and logs nothing.
 */
final class DockerSqlServer {
    static final String IMAGE = "mcr.microsoft.com/mssql/server:2022-latest";

    private DockerSqlServer() {
    }

    static boolean dockerAvailable() {
        if (!dockerHinted()) {
            return false;
        }
        try {
            return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            // A missing class or a broken Docker environment both mean: not this option.
            return false;
        }
    }

    static SqlServerTestEngine start() {
        @SuppressWarnings("resource") // lives for the JVM; Ryuk removes it
        org.testcontainers.mssqlserver.MSSQLServerContainer container =
                new org.testcontainers.mssqlserver.MSSQLServerContainer(IMAGE).acceptLicense();
        container.start();
        String url = container.getJdbcUrl().replaceAll("(?i);\\s*(databaseName|database)\\s*=[^;]*", "")
                + ";trustServerCertificate=true";
        return new SqlServerTestEngine(EngineKind.SQL_SERVER_TESTCONTAINERS, url, container.getUsername(),
                container.getPassword(), IMAGE + " at " + container.getHost() + ":"
                + container.getMappedPort(org.testcontainers.mssqlserver.MSSQLServerContainer.MS_SQL_SERVER_PORT));
    }

    private static boolean dockerHinted() {
        if (System.getenv("DOCKER_HOST") != null) {
            return true;
        }
        String home = System.getProperty("user.home", "");
        List<Path> hints = List.of(Path.of(home, ".testcontainers.properties"), Path.of("/var/run/docker.sock"),
                Path.of(home, ".docker", "run", "docker.sock"), Path.of(home, ".docker", "desktop", "docker.sock"),
                Path.of(home, ".colima", "default", "docker.sock"), Path.of(home, ".rd", "docker.sock"),
                Path.of("/run/user", uid(), "docker.sock"));
        return hints.stream().anyMatch(Files::exists);
    }

    private static String uid() {
        try {
            return String.valueOf(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (Exception e) {
            return "0";
        }
    }
}
