"""statemachine"""
