import Foundation

/// A small client features payload: a rollout with a strategy variant and a constraint, a
/// user list with weighted feature variants and an override, a disabled toggle, a segment.
let featuresJSON = #"""
{
  "version": 2,
  "features": [
    {
      "name": "new-checkout", "enabled": true, "impressionData": true,
      "strategies": [{
        "name": "flexibleRollout",
        "parameters": {"rollout": "100", "stickiness": "default", "groupId": "new-checkout"},
        "constraints": [{"contextName": "plan", "operator": "IN", "values": ["pro"]}],
        "segments": [1],
        "variants": [{"name": "blue", "weight": 1000, "stickiness": "default", "payload": {"type": "json", "value": "{\"color\": \"#00f\"}"}}]
      }]
    },
    {
      "name": "beta-banner", "enabled": true,
      "strategies": [{"name": "userWithId", "parameters": {"userIds": "u1, u2"}}],
      "variants": [
        {"name": "short", "weight": 500, "stickiness": "default", "payload": {"type": "string", "value": "Hi"}},
        {"name": "long", "weight": 500, "stickiness": "default", "payload": {"type": "number", "value": "42"},
         "overrides": [{"contextName": "userId", "values": ["u2"]}]}
      ]
    },
    {"name": "kill-switch", "enabled": false, "strategies": []}
  ],
  "segments": [{"id": 1, "constraints": [{"contextName": "appName", "operator": "STR_STARTS_WITH", "values": ["shop"]}]}]
}
"""#

/// The same toggles after an edit: `kill-switch` turned on.
let featuresV2JSON = featuresJSON.replacingOccurrences(of: #"{"name": "kill-switch", "enabled": false"#, with: #"{"name": "kill-switch", "enabled": true"#)
