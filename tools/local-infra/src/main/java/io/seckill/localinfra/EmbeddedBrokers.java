package io.seckill.localinfra;

import io.seckill.config.KafkaPrincipal;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AclBinding;

/** Kafka started here, one node or a cluster: clients log in with SCRAM and act as the ACLs say. */
interface EmbeddedBrokers extends RunningServer {

    /**
     * Gives each principal its SCRAM login with its password (a kept cluster already has them: they are set again) and
     * applies {@code acls}.
     */
    void provision(Map<KafkaPrincipal, String> passwords, List<AclBinding> acls);
}
