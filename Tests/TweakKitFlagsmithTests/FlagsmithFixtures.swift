import Foundation

/// A small environment document: a multivariate flag, a segment override, an identity override.
let environmentDocumentJSON = #"""
{
  "api_key": "env-key",
  "name": "Production",
  "feature_states": [
    {"feature": {"id": 1, "name": "new-checkout"}, "enabled": false, "feature_state_value": "off", "django_id": 11},
    {"feature": {"id": 2, "name": "button"}, "enabled": true, "feature_state_value": "grey", "django_id": 12,
     "multivariate_feature_state_values": [
       {"id": 21, "percentage_allocation": 50.0, "multivariate_feature_option": {"value": "blue", "key": "blue-variant"}},
       {"id": 22, "percentage_allocation": 50, "multivariate_feature_option": {"value": "green"}}
     ]},
    {"feature": {"id": 3, "name": "limit"}, "enabled": true, "feature_state_value": 10, "django_id": 13}
  ],
  "project": {
    "segments": [
      {"id": 5, "name": "pro-users",
       "rules": [{"type": "ALL", "rules": [{"type": "ANY", "conditions": [
         {"operator": "EQUAL", "property_": "plan", "value": "pro"},
         {"operator": "GREATER_THAN_INCLUSIVE", "property_": "age", "value": "65"}
       ]}]}],
       "feature_states": [
         {"feature": {"id": 1, "name": "new-checkout"}, "enabled": true, "feature_state_value": "on", "django_id": 31,
          "feature_segment": {"priority": 1}}
       ]}
    ]
  },
  "identity_overrides": [
    {"identifier": "vip", "identity_features": [
      {"feature": {"id": 3, "name": "limit"}, "enabled": true, "feature_state_value": 1000, "featurestate_uuid": "u1"}
    ]}
  ]
}
"""#
