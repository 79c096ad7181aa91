// TweakKitPostgresTestSupport's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import TweakKitStorePostgres
