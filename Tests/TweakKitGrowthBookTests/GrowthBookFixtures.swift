import Foundation

/// A small SDK payload: a force rule and an A/B test on one feature, JSON, number and null values.
/// Variations of the A/B test as GrowthBook's Python SDK assigns them: user-1 treatment
/// (bucket 0.6947), user-2 control (0.472).
enum GrowthBookFixtures {
    static func payload(weights: String = "[0.5, 0.5]") -> Data {
        Data("""
        {
          "status": 200,
          "features": {
            "checkout-redesign": {"defaultValue": false, "rules": [
              {"id": "fr_beta", "condition": {"beta": true}, "force": true},
              {"id": "exp_checkout", "key": "checkout-test", "seed": "checkout-test", "hashAttribute": "id", "hashVersion": 2,
               "variations": [false, true], "weights": \(weights), "coverage": 1, "meta": [{"key": "control"}, {"key": "treatment"}]}
            ]},
            "banner": {"defaultValue": {"text": "Hello", "color": "blue"}, "rules": [
              {"id": "fr_nl", "condition": {"country": "NL"}, "force": {"text": "Hallo", "color": "orange"}}
            ]},
            "max-items": {"defaultValue": 10, "rules": [
              {"id": "fr_pro", "condition": {"plan": {"$in": ["pro", "enterprise"]}}, "force": 50}
            ]},
            "nothing": {"defaultValue": null}
          },
          "savedGroups": {}
        }
        """.utf8)
    }
}
