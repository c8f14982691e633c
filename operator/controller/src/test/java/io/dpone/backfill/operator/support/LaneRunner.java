package io.dpone.backfill.operator.support;

import io.dpone.backfill.testsupport.RepositoryRoot;
import io.dpone.backfill.operator.lanes.LaneLabels;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plays the kubelet for lane pods in the mock API server: every new lane pod's container runs as a local
 * {@code backfill lane} process (the lane jar the lane image ships) with that pod's arguments and environment, resolving
 * {@code secretKeyRef}s from Secrets in the mock and {@code $(VAR)} references as the kubelet does. The pod's phase
 * is written back (Running, then Succeeded or Failed with the exit code); a deleted pod's process is terminated.
 */
public final class LaneRunner implements AutoCloseable {
    public static final Path JAR = RepositoryRoot.resolve("lane-worker", "worker", "target", "backfill-lane.jar").toAbsolutePath().normalize();
    private static final Pattern VAR = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    private record Lane(Pod pod, Process process, Path log) {
    }

    private final KubernetesClient client;
    private final String namespace;
    private final Path logDir;
    private final Map<String, Lane> running = new ConcurrentHashMap<>();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final Map<String, Path> logs = new ConcurrentHashMap<>();
    private final ScheduledExecutorService kubelet = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lane-runner");
        t.setDaemon(true);
        return t;
    });
    private volatile Function<Pod, Map<String, String>> extraEnv = p -> Map.of();
    private volatile Function<Pod, Integer> crashOnStart = p -> null;

    public LaneRunner(KubernetesClient client, String namespace, Path logDir) {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException("missing " + JAR + ": the reactor packages the lane module before operator");
        }
        this.client = client;
        this.namespace = namespace;
        this.logDir = logDir;
        kubelet.scheduleWithFixedDelay(this::sync, 0, 200, TimeUnit.MILLISECONDS);
    }

    /** Extra environment per pod (fault points for crash tests). */
    public LaneRunner withExtraEnv(Function<Pod, Map<String, String>> env) {
        this.extraEnv = env;
        return this;
    }

    /** A pod for which this returns an exit code fails at once with it, without running (a crashing image). */
    public LaneRunner withCrashOnStart(Function<Pod, Integer> crash) {
        this.crashOnStart = crash;
        return this;
    }

    public Path log(String podName) {
        return logs.get(podName);
    }

    public long pid(String podName) {
        Lane lane = running.get(podName);
        if (lane == null) {
            throw new IllegalStateException("pod " + podName + " is not running");
        }
        return lane.process().pid();
    }

    public String output(String podName) throws IOException {
        Path log = logs.get(podName);
        return log == null || !Files.exists(log) ? "" : Files.readString(log);
    }

    public String allOutput() {
        StringBuilder sb = new StringBuilder();
        logs.forEach((name, path) -> {
            try {
                sb.append("--- ").append(name).append('\n').append(Files.exists(path) ? Files.readString(path) : "").append('\n');
            } catch (IOException e) {
                sb.append(e).append('\n');
            }
        });
        return sb.toString();
    }

    /** Sends a signal to a running lane's process (KILL simulates a crashed node or OOM kill). */
    public void signal(String podName, String signal) throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(pid(podName))).inheritIO().start().waitFor();
    }

    private synchronized void sync() {
        try {
            List<Pod> pods = client.pods().inNamespace(namespace).withLabel(LaneLabels.MANAGED_BY, LaneLabels.MANAGED_BY_VALUE).list().getItems();
            Set<String> present = ConcurrentHashMap.newKeySet();
            for (Pod pod : pods) {
                String name = pod.getMetadata().getName();
                present.add(name);
                if (pod.getMetadata().getDeletionTimestamp() == null && seen.add(pod.getMetadata().getUid())) {
                    start(pod);
                }
            }
            for (Lane lane : List.copyOf(running.values())) {
                String name = lane.pod().getMetadata().getName();
                if (!present.contains(name)) {
                    lane.process().destroy(); // the kubelet's SIGTERM; the grace period ends with SIGKILL below
                    if (!lane.process().waitFor(5, TimeUnit.SECONDS)) {
                        lane.process().destroyForcibly();
                    }
                    running.remove(name);
                } else if (!lane.process().isAlive()) {
                    running.remove(name);
                    terminated(lane.pod(), lane.process().exitValue());
                }
            }
        } catch (Exception e) {
            System.err.println("lane runner: " + e);
        }
    }

    private void start(Pod pod) throws IOException {
        String name = pod.getMetadata().getName();
        Integer crash = crashOnStart.apply(pod);
        if (crash != null) {
            terminated(pod, crash);
            return;
        }
        var container = pod.getSpec().getContainers().get(0);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", JAR.toString()));
        command.addAll(container.getArgs());
        Path log = logDir.resolve(name + ".log");
        logs.put(name, log);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("BACKFILL_"));
        pb.environment().putAll(environment(container.getEnv()));
        pb.environment().putAll(extraEnv.apply(pod));
        Process process = pb.start();
        running.put(name, new Lane(pod, process, log));
        phase(pod, "Running", null);
    }

    private Map<String, String> environment(List<EnvVar> vars) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar v : vars) {
            if (v.getValueFrom() != null && v.getValueFrom().getSecretKeyRef() != null) {
                var ref = v.getValueFrom().getSecretKeyRef();
                Secret secret = client.secrets().inNamespace(namespace).withName(ref.getName()).get();
                if (secret == null || secret.getData() == null || !secret.getData().containsKey(ref.getKey())) {
                    throw new IllegalStateException("CreateContainerConfigError: secret " + ref.getName() + " key " + ref.getKey());
                }
                env.put(v.getName(), new String(Base64.getDecoder().decode(secret.getData().get(ref.getKey())), StandardCharsets.UTF_8));
            } else if (v.getValueFrom() != null) {
                throw new IllegalStateException("unsupported valueFrom in " + v.getName());
            } else {
                Matcher m = VAR.matcher(v.getValue() == null ? "" : v.getValue());
                StringBuilder sb = new StringBuilder();
                while (m.find()) {
                    m.appendReplacement(sb, Matcher.quoteReplacement(env.getOrDefault(m.group(1), m.group())));
                }
                m.appendTail(sb);
                env.put(v.getName(), sb.toString());
            }
        }
        return env;
    }

    private void terminated(Pod pod, int exitCode) {
        phase(pod, exitCode == 0 ? "Succeeded" : "Failed", exitCode);
    }

    private void phase(Pod pod, String phase, Integer exitCode) {
        PodStatusBuilder status = new PodStatusBuilder().withPhase(phase);
        if (exitCode != null) {
            status.withContainerStatuses(new ContainerStatusBuilder().withName(pod.getSpec().getContainers().get(0).getName())
                    .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode)
                            .withReason(exitCode == 0 ? "Completed" : "Error").endTerminated().build()).build());
        }
        try {
            client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).editStatus(p -> {
                p.setStatus(status.build());
                return p;
            });
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    /** Waits until the pod's lane printed a line matching {@code regex}. */
    public void awaitOutput(String podName, String regex, Duration timeout) throws Exception {
        Pattern p = Pattern.compile(regex);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (p.matcher(output(podName)).find()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("pod " + podName + " printed no /" + regex + "/ within " + timeout + ":\n" + allOutput());
    }

    @Override
    public void close() {
        kubelet.shutdownNow();
        for (Lane lane : running.values()) {
            lane.process().destroyForcibly();
            try {
                lane.process().waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        running.clear();
    }
}
