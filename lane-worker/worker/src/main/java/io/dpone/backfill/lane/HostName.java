package io.dpone.backfill.lane;

/** This machine's host name, for lease owners that say where a lane or driver runs (a pod's name in Kubernetes). */
public final class HostName {
    private HostName() {
    }

    public static String local() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }
}
