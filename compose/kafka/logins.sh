#!/bin/sh
# Gives each principal its SCRAM-SHA-512 login, as the broker's own user on its own listener. Passwords come from the
# environment and go through files readable by this user only, never a command line.
set -eu
umask 077
work=$(mktemp -d)
printf 'security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="seckill-broker" password="%s";\n' \
  "$BROKER_PASSWORD" > "$work/broker.properties"

login() {
  printf 'SCRAM-SHA-512=[iterations=8192,password=%s]\n' "$2" > "$work/$1.scram"
  /opt/kafka/bin/kafka-configs.sh --bootstrap-server kafka:9094 --command-config "$work/broker.properties" \
    --alter --entity-type users --entity-name "$1" --add-config-file "$work/$1.scram"
}

login seckill-operator "$KAFKA_OPERATOR_PASSWORD"
login seckill-ingress "$KAFKA_INGRESS_PASSWORD"
login seckill-stream-processor "$KAFKA_STREAM_PROCESSOR_PASSWORD"
login seckill-db-sink "$KAFKA_DB_SINK_PASSWORD"
login seckill-reconciler "$KAFKA_RECONCILER_PASSWORD"
login seckill-transaction-repair "$KAFKA_TRANSACTION_REPAIR_PASSWORD"
rm -rf "$work"
