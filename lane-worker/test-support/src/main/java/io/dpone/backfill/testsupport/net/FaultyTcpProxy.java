package io.dpone.backfill.testsupport.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A local TCP proxy in front of one server, for tests of clients that must heal by themselves. {@link #stallExisting}
 * turns every connection open now half-open: both sockets stay open, no byte moves any more, so the client's calls
 * hang (a network that silently stops carrying bytes; the server keeps its session). {@link #cutExisting} resets
 * them. Connections opened afterwards pass normally.
 */
public final class FaultyTcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final List<Link> links = new ArrayList<>();
    private volatile boolean closed;

    public FaultyTcpProxy(String upstreamHost, int upstreamPort) throws IOException {
        this.upstream = new InetSocketAddress(upstreamHost, upstreamPort);
        this.listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread accept = new Thread(this::acceptLoop, "proxy-accept-" + listener.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Connections passed through so far (open or not). */
    public synchronized int connectionsSeen() {
        return links.size();
    }

    /** Every connection open now stops carrying bytes, both ways, and stays open; returns how many. */
    public synchronized int stallExisting() {
        int n = 0;
        for (Link link : links) {
            if (!link.isClosed()) {
                link.stalled = true;
                n++;
            }
        }
        return n;
    }

    /** Every connection open now is reset (RST to both sides); returns how many. */
    public synchronized int cutExisting() {
        int n = 0;
        for (Link link : links) {
            if (!link.isClosed()) {
                link.reset();
                n++;
            }
        }
        return n;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(upstream, 5000);
                Link link = new Link(client, server);
                synchronized (this) {
                    links.add(link);
                }
                link.start();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        synchronized (this) {
            for (Link link : links) {
                link.reset();
            }
        }
    }

    private static final class Link {
        private final Socket client;
        private final Socket server;
        private final CountDownLatch ended = new CountDownLatch(1);
        volatile boolean stalled;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() throws IOException {
            pump(client.getInputStream(), server.getOutputStream(), "up");
            pump(server.getInputStream(), client.getOutputStream(), "down");
        }

        private void pump(InputStream in, OutputStream out, String direction) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[16384];
                try {
                    while (true) {
                        awaitUnstalled();
                        int n = in.read(buffer);
                        if (n < 0) {
                            break;
                        }
                        // Bytes read just as the stall began are held back too: nothing more reaches the peer.
                        awaitUnstalled();
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (IOException | InterruptedException ignored) {
                    // The other side went away, or the link was reset.
                }
                if (!stalled) {
                    reset();
                }
            }, "proxy-" + direction);
            t.setDaemon(true);
            t.start();
        }

        /** A stalled link never moves again: it waits until it is reset. */
        private void awaitUnstalled() throws InterruptedException {
            if (stalled) {
                ended.await();
                throw new InterruptedException("link reset while stalled");
            }
        }

        boolean isClosed() {
            return ended.getCount() == 0;
        }

        void reset() {
            for (Socket s : new Socket[]{client, server}) {
                try {
                    s.setSoLinger(true, 0);
                    s.close();
                } catch (IOException ignored) {
                    // Already closed.
                }
            }
            ended.countDown();
        }
    }
}
