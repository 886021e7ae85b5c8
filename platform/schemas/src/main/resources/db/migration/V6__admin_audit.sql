-- Every admin action, as it was asked and what it changed: who (the token's subject), from where (the
-- client's address), when, the request, the answer's status, and the target's state before and after
-- (JSON). Rows are only ever added.
CREATE TABLE admin_audit (
  id           BIGINT       NOT NULL AUTO_INCREMENT,
  recorded_at  DATETIME(3)  NOT NULL,
  admin        VARCHAR(128) NOT NULL,
  address      VARCHAR(64)  NOT NULL,
  action       VARCHAR(200) NOT NULL,
  status       INT          NOT NULL,
  request      TEXT         NULL,
  before_state TEXT         NULL,
  after_state  TEXT         NULL,
  PRIMARY KEY (id)
);
CREATE INDEX ix_admin_audit_recorded_at ON admin_audit (recorded_at);
