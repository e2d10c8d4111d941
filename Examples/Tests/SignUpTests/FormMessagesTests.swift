import SignUpClient
import StreamsNetworking
import Testing

/// The form's words for the sign-up protocol's answers.
@Suite("Form messages")
struct FormMessagesTests {
    @Test func theProtocolsReasonsInTheUsersWords() {
        #expect(FormMessages.message(for: .failure(FormMessages.rejection("emptyName"))) == "Please choose a user name")
        #expect(
            FormMessages.message(for: .failure(FormMessages.rejection("tooShort"))) == "User names need at least 4 characters")
        #expect(FormMessages.message(for: .failure(FormMessages.rejection("illegalName"))) == "That name is not allowed")
    }

    @Test func aReasonTheClientDoesNotKnowIsStillASentence() {
        for reason in ["profanity", nil] {
            let message = FormMessages.message(for: .failure(FormMessages.rejection(reason)))
            #expect(message == "The server did not accept that name. Please try another one.")
        }
    }

    @Test func maintenanceSaysWhenToComeBack() {
        let error = NetworkError.server(
            HTTPErrorResponse(status: 500, problem: ProblemDetails(detail: "maintenance"), retryAfter: .seconds(300)))
        #expect(FormMessages.message(for: .failure(error)) == "The server is busy. Please try again in 5 minutes.")
    }
}
